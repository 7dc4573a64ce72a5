import path from 'node:path'
import { z } from 'zod'

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional()

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
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  ADMIN_EMAIL: optionalString.pipe(z.email('ADMIN_EMAIL must be an e-mail address').optional()),
  ADMIN_PASSWORD: optionalString.pipe(z.string().min(10, 'ADMIN_PASSWORD must be at least 10 characters').optional()),
  SMTP_URL: optionalString.pipe(z.url('SMTP_URL must look like smtp://user:pass@host:587').optional()),
  SMTP_FROM: optionalString,
  CONTACT_FORWARD_URL: optionalString.pipe(z.url('CONTACT_FORWARD_URL must be a full URL').optional()),
  MAX_BODY_MB: z.coerce.number().positive().default(12),
  // Video conversion (Debian: apt-get install ffmpeg). Without them, videos are shown as uploaded.
  FFMPEG_PATH: z.string().trim().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().trim().min(1).default('ffprobe'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
})

export type Env = z.infer<typeof EnvSchema> & { dataDir: string }

function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = EnvSchema.safeParse(source)
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new Error(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example for every variable.`)
  }
  return { ...result.data, dataDir: path.resolve(result.data.DATA_DIR) }
}

export const env = parseEnv(process.env)
