import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import { env } from '../env.server'

/** ffmpeg or ffprobe is not installed where FFMPEG_PATH / FFPROBE_PATH say. */
export class ToolMissingError extends Error {
  constructor(command: string) {
    super(`${command} is not installed`)
    this.name = 'ToolMissingError'
  }
}

/** The tool ran and gave up on the file; `message` is its last error line. */
export class ToolFailedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ToolFailedError'
  }
}

interface RunOptions {
  signal?: AbortSignal
  timeoutMs: number
  maxOutputBytes?: number
}

interface RunResult {
  stdout: Buffer
  stderr: string
}

/**
 * Where util-linux's setpriv is, which every Linux has: the tool is started through it with the
 * kernel's parent-death signal, so it is killed when this process ends in any way, even with
 * SIGKILL, which no handler of ours sees. Without it a conversion would go on as an orphan, its time
 * limit gone with the server. Elsewhere (a developer's Mac) the tool runs as it is, within its limit.
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((file) => fs.existsSync(file))

/** The command line that runs `command` and ends it with this process. */
function diesWithThisProcess(command: string, args: string[]): [string, string[]] {
  return SETPRIV ? [SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, args]
}

/** Runs a command without a shell; resolves with its output when it exits with 0. */
function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(...diesWithThisProcess(command, args), { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal })
    // Converting a video takes every core for a while: visitors' pages go first.
    try {
      if (child.pid) os.setPriority(child.pid, os.constants.priority.PRIORITY_LOW)
    } catch {
      // It has already exited; its 'close' below says how.
    }
    const stdout: Buffer[] = []
    let stdoutBytes = 0
    let stderr = ''
    let stopped: string | null = null
    const timer = setTimeout(() => {
      stopped = `took longer than ${Math.round(options.timeoutMs / 1000)} s`
      child.kill('SIGKILL')
    }, options.timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length
      if (stdoutBytes > (options.maxOutputBytes ?? 16 * 1024 * 1024)) {
        stopped = 'wrote more output than expected'
        child.kill('SIGKILL')
      } else stdout.push(chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8_000)
    })
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      // Stopped by the signal, it got SIGTERM and may still be writing its file: it does not get long.
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref()
      }
      reject(error.code === 'ENOENT' || error.code === 'EACCES' ? new ToolMissingError(command) : error)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code === 0 && !stopped) return resolve({ stdout: Buffer.concat(stdout), stderr })
      // setpriv found no such program (127) or could not run it (126).
      if ((code === 127 || code === 126) && stderr.startsWith('setpriv: failed to execute')) {
        return reject(new ToolMissingError(command))
      }
      const lastLine = stderr.trim().split('\n').pop()?.trim()
      reject(new ToolFailedError(stopped ?? (lastLine || `exited with status ${code}`)))
    })
  })
}

/** The demuxer to open a file with: chosen by its first bytes, never left to ffmpeg's guess. */
export type Demuxer = 'mov' | 'matroska'

function inputArgs(file: string, demuxer: Demuxer): string[] {
  // Only plain files: no network protocols or playlists, whatever the file contains.
  return ['-protocol_whitelist', 'file', '-f', demuxer, '-i', `file:${file}`]
}

export interface ProbeResult {
  formatName: string
  durationMs: number | null
  /** The first real video stream (not a cover picture), if any. */
  video: { codec: string; width: number; height: number } | null
  hasAudio: boolean
}

interface FfprobeJson {
  format?: { format_name?: string; duration?: string }
  streams?: {
    codec_type?: string
    codec_name?: string
    width?: number
    height?: number
    disposition?: { attached_pic?: number }
  }[]
}

/** Reads the container and its streams. Errors in the file (truncated, damaged) throw ToolFailedError. */
export async function probeMedia(file: string, demuxer: Demuxer, signal?: AbortSignal): Promise<ProbeResult> {
  const { stdout, stderr } = await run(
    env.FFPROBE_PATH,
    [
      '-v',
      'error',
      ...inputArgs(file, demuxer),
      '-show_entries',
      'format=format_name,duration:stream=codec_type,codec_name,width,height:stream_disposition=attached_pic',
      '-of',
      'json',
    ],
    { signal, timeoutMs: 30_000 },
  )
  // A partial file still gives an answer, with complaints: not good enough.
  if (stderr.trim()) throw new ToolFailedError(stderr.trim().split('\n').pop()!.trim())
  const json = JSON.parse(stdout.toString()) as FfprobeJson
  const video = json.streams?.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic)
  const duration = Number(json.format?.duration)
  return {
    formatName: json.format?.format_name ?? '',
    durationMs: Number.isFinite(duration) && duration > 0 ? Math.round(duration * 1000) : null,
    video: video?.width && video.height ? { codec: video.codec_name ?? '', width: video.width, height: video.height } : null,
    hasAudio: json.streams?.some((s) => s.codec_type === 'audio') ?? false,
  }
}

// At most 1280x720 (720x1280 upright), never enlarged, even sides (H.264 in 4:2:0 needs them).
const SCALE_TO_720P =
  "scale=w='min(if(gte(iw,ih),1280,720),iw)':h='min(if(gte(iw,ih),720,1280),ih)'" +
  ':force_original_aspect_ratio=decrease:force_divisible_by=2,format=yuv420p'

/**
 * Converts to an MP4 every browser plays: H.264 + AAC, at most 720p, the index at the front
 * (`+faststart`, so playback starts before the download ends), and no metadata at all (phones
 * record the place a video was taken).
 */
export async function convertToWebMp4(
  input: string,
  demuxer: Demuxer,
  output: string,
  options: { signal?: AbortSignal; timeoutMs: number },
): Promise<void> {
  await run(
    env.FFMPEG_PATH,
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-y',
      ...inputArgs(input, demuxer),
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-map_metadata',
      '-1',
      '-map_metadata:s:v',
      '-1',
      '-map_metadata:s:a',
      '-1',
      '-map_chapters',
      '-1',
      '-sn',
      '-dn',
      '-vf',
      SCALE_TO_720P,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ac',
      '2',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
      `file:${output}`,
    ],
    options,
  )
}

/** One frame at `atMs` as PNG bytes, for the poster image. */
export async function extractFrame(input: string, atMs: number, signal?: AbortSignal): Promise<Buffer> {
  const { stdout } = await run(
    env.FFMPEG_PATH,
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-ss',
      (atMs / 1000).toFixed(3),
      ...inputArgs(input, 'mov'),
      '-frames:v',
      '1',
      '-f',
      'image2pipe',
      '-c:v',
      'png',
      'pipe:1',
    ],
    { signal, timeoutMs: 60_000, maxOutputBytes: 32 * 1024 * 1024 },
  )
  if (stdout.length === 0) throw new ToolFailedError('no frame could be read for the poster')
  return stdout
}
