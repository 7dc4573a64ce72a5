import { env } from '../app/platform/env.server'

/** Prints the one address that opens the new site's setup page (app/modules/setup), once the server listens. */
export function printSetupAddress(setupPath: string | null, listening: string): void {
  if (!setupPath) return
  const origin = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : listening
  console.log(
    [
      '',
      '==================================================================',
      '  This site is new. Set it up, within the hour, at:',
      `    ${origin}${setupPath}`,
      '  Only this address opens the setup page; a restart prints a new one.',
      '==================================================================',
      '',
    ].join('\n'),
  )
}
