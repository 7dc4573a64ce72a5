import path from 'node:path'
import { z } from 'zod'
import { UPLOAD_MAX_MB } from './media/upload-policy'
import type { S3StorageSettings } from './storage/storage'

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional()

const wholeNumber = (name: string, min: number, fallback: number) =>
  z.coerce
    .number(`${name} must be a whole number`)
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .default(fallback)

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1')

// Without these the S3 driver cannot work; S3_ENDPOINT may stay unset for Amazon S3 itself.
const REQUIRED_FOR_S3 = ['S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// (leave it unset for SQLite)')
      .optional(),
  ),
  PUBLIC_URL: optionalString.pipe(z.url('PUBLIC_URL must be a full URL like https://example.org').optional()),
  TRUST_PROXY: booleanFlag,
  ADMIN_EMAIL: optionalString.pipe(z.email('ADMIN_EMAIL must be an e-mail address').optional()),
  ADMIN_PASSWORD: optionalString.pipe(z.string().min(10, 'ADMIN_PASSWORD must be at least 10 characters').optional()),
  SMTP_URL: optionalString.pipe(z.url('SMTP_URL must look like smtp://user:pass@host:587').optional()),
  SMTP_FROM: optionalString,
  CONTACT_FORWARD_URL: optionalString.pipe(z.url('CONTACT_FORWARD_URL must be a full URL').optional()),
  // E-mails to people (newsletters, confirmations): how many each process sends per second, and how many may wait.
  OUTGOING_EMAILS_PER_SECOND: z.coerce
    .number('OUTGOING_EMAILS_PER_SECOND must be a number')
    .positive('OUTGOING_EMAILS_PER_SECOND must be more than 0')
    .max(1000, 'OUTGOING_EMAILS_PER_SECOND must be at most 1000')
    .default(1),
  OUTGOING_EMAILS_MAX_WAITING: wholeNumber('OUTGOING_EMAILS_MAX_WAITING', 1, 20_000),
  // How many people the list of e-mail subscribers may hold (those invited to confirm included).
  SUBSCRIBERS_MAX: wholeNumber('SUBSCRIBERS_MAX', 1, 20_000),
  MAX_BODY_MB: z.coerce.number().positive().default(12),
  // How long an anonymous page may be served from memory at most (changes refresh it at once); 0: no page cache.
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).default(60),
  // How many days the audit log keeps an entry; older ones are removed by a periodic sweep.
  AUDIT_LOG_DAYS: z.coerce
    .number('AUDIT_LOG_DAYS must be a whole number of days')
    .int('AUDIT_LOG_DAYS must be a whole number of days')
    .min(1, 'AUDIT_LOG_DAYS must be at least 1')
    .max(36500)
    .default(365),
  // Resumable uploads per user (docs/decisions/009-resumable-uploads.md): unfinished at once, and started per hour.
  UPLOAD_LIMIT_UNFINISHED: wholeNumber('UPLOAD_LIMIT_UNFINISHED', 1, 20),
  UPLOAD_LIMIT_UNFINISHED_MB: wholeNumber('UPLOAD_LIMIT_UNFINISHED_MB', UPLOAD_MAX_MB, 500),
  UPLOAD_LIMIT_PER_HOUR: wholeNumber('UPLOAD_LIMIT_PER_HOUR', 1, 300),
  UPLOAD_LIMIT_MB_PER_HOUR: wholeNumber('UPLOAD_LIMIT_MB_PER_HOUR', UPLOAD_MAX_MB, 1000),
  // How often stored files that no row refers to (left by a crash mid-upload) are looked for; those over an hour old go.
  UNREFERENCED_FILES_SWEEP_SECONDS: z.coerce
    .number('UNREFERENCED_FILES_SWEEP_SECONDS must be a whole number of seconds')
    .int('UNREFERENCED_FILES_SWEEP_SECONDS must be a whole number of seconds')
    .min(1, 'UNREFERENCED_FILES_SWEEP_SECONDS must be at least 1')
    .max(86_400, 'UNREFERENCED_FILES_SWEEP_SECONDS must be at most 86400 (a day)')
    .default(3600),
  // Video conversion (Debian: apt-get install ffmpeg). Without them, videos are shown as uploaded.
  FFMPEG_PATH: z.string().trim().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().trim().min(1).default('ffprobe'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  STORAGE_DRIVER: z.enum(['local', 's3'], 'STORAGE_DRIVER must be local or s3').default('local'),
  S3_ENDPOINT: optionalString.pipe(z.url('S3_ENDPOINT must be a full URL like https://s3.example.org').optional()),
  S3_REGION: optionalString,
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: booleanFlag,
})

const CheckedEnvSchema = EnvSchema.superRefine((value, ctx) => {
  if (value.STORAGE_DRIVER !== 's3') return
  for (const name of REQUIRED_FOR_S3) {
    if (!value[name]) ctx.addIssue({ code: 'custom', path: [name], message: `${name} is required when STORAGE_DRIVER=s3` })
  }
})

type ParsedEnv = z.infer<typeof EnvSchema>

/** `s3` holds the S3 driver's settings when STORAGE_DRIVER=s3, and then all of them. */
export type Env = ParsedEnv & { dataDir: string; maxBodyBytes: number; s3: S3StorageSettings | undefined }

function s3SettingsOf(data: ParsedEnv): S3StorageSettings | undefined {
  if (data.STORAGE_DRIVER !== 's3') return undefined
  // The schema has refused a missing one already.
  return {
    endpoint: data.S3_ENDPOINT,
    region: data.S3_REGION!,
    bucket: data.S3_BUCKET!,
    accessKeyId: data.S3_ACCESS_KEY_ID!,
    secretAccessKey: data.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: data.S3_FORCE_PATH_STYLE,
  }
}

function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = CheckedEnvSchema.safeParse(source)
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example for every variable.`)
  }
  return {
    ...result.data,
    dataDir: path.resolve(result.data.DATA_DIR),
    maxBodyBytes: Math.round(result.data.MAX_BODY_MB * 1024 * 1024),
    s3: s3SettingsOf(result.data),
  }
}

export const env = parseEnv(process.env)
