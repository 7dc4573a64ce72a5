import { E2E_SMTP_PORT } from '../../playwright.config'
import { MailCatcher } from '../fixtures/mail-catcher'
import { test } from './fixtures'

/** A real SMTP server on the port the e2e site sends to, for the tests of one file. */
export function catchMailDuringFile(): MailCatcher {
  const mail = new MailCatcher()
  test.beforeAll(async () => {
    mail.port = E2E_SMTP_PORT
    await mail.start()
  })
  test.afterAll(async () => {
    await mail.stop()
  })
  return mail
}
