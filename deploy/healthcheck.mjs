// The container's health check (Dockerfile and compose.yaml): exits 0 while the site answers
// /healthz, which also checks the database.
const response = await fetch(`http://127.0.0.1:${process.env.PORT ?? 3000}/healthz`).catch(() => null)
process.exit(response?.ok ? 0 : 1)
