// Creates the bucket S3_BUCKET names, when it does not exist yet, on the S3-compatible server
// S3_ENDPOINT names (compose.yaml runs it once before the site starts):
// `node --import tsx deploy/create-bucket.ts`.
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3'

const { S3_ENDPOINT, S3_REGION = 'us-east-1', S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = process.env
if (!S3_BUCKET || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY) {
  console.error('Set S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_ENDPOINT for a server other than Amazon S3).')
  process.exit(1)
}
const client = new S3Client({
  endpoint: S3_ENDPOINT,
  region: S3_REGION,
  forcePathStyle: process.env.S3_FORCE_PATH_STYLE === 'true',
  credentials: { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY },
})
// The server may still be starting: try for a minute.
for (let attempt = 1; ; attempt++) {
  try {
    await client.send(new HeadBucketCommand({ Bucket: S3_BUCKET }))
    console.log(`The bucket "${S3_BUCKET}" exists.`)
    break
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
    if (status === 404) {
      await client.send(new CreateBucketCommand({ Bucket: S3_BUCKET }))
      console.log(`Created the bucket "${S3_BUCKET}".`)
      break
    }
    if (attempt >= 30) throw error
    await new Promise((resolve) => setTimeout(resolve, 2_000))
  }
}
client.destroy()
