import type { SessionUser } from '../auth.server'
import type { Db } from '../db.server'
import { logger } from '../logger.server'
import type { ImageChange, ImageListChange, StoredImage } from './image-changes'
import { deleteStoredFiles, storeImageFiles, type ImageSource } from './image-pipeline.server'
import type { ImagePresetName } from './image-presets'
import { deleteImageRows, insertImage } from './images.server'
import { MediaRejectedError } from './media-rejected'
import { discardUpload, releaseFinishedUpload, takeFinishedUpload, type FinishedUpload } from './uploads.server'
import { requestVideoRun } from './video-conversion.server'
import { checkVideoFile } from './video-files.server'
import { keepOriginal, returnOriginal } from './video-originals.server'
import type { NewVideo } from './videos.server'

export type { ImageChange, ImageListChange, StoredImage } from './image-changes'

/**
 * One change of records and their media: what it stores is deleted again if the change fails,
 * and what it replaces or removes is deleted once the change is committed. Used through
 * `withMediaChange` (an example is in docs/adding-a-feature.md).
 */
export class MediaChange {
  #stored: string[] = []
  #releasing: string[] = []
  #released: string[] = []
  #beforeCommit: ((trx: Db) => Promise<void>)[] = []
  #pendingAfterCommit: (() => Promise<void>)[] = []
  #afterCommit: (() => Promise<void>)[] = []
  #committed = false
  #taken: FinishedUpload[] = []
  #staged: { upload: FinishedUpload; video: NewVideo }[] = []

  private constructor() {}

  /**
   * A finished resumable upload of `user` (MediaRejectedError if there is none), for
   * `storeImage` or `stageVideo`. It is discarded once this change commits, and kept if the
   * change fails, so that the form can be sent again; a refused file is discarded at once.
   */
  async takeUpload(uploadId: string, user: Pick<SessionUser, 'id'>): Promise<FinishedUpload> {
    const upload = await takeFinishedUpload(uploadId, user)
    this.#taken.push(upload)
    return upload
  }

  /** Refuses a taken upload: sending it again cannot help, so it is discarded. */
  async refuseUpload(upload: FinishedUpload, error: MediaRejectedError): Promise<never> {
    await discardUpload(upload.id)
    throw error
  }

  /**
   * Checks a taken video upload and keeps it as the video's original (see video-originals), before
   * the transaction (ffprobe takes a while). The caller records it with insertVideo inside
   * `media.transaction`; if the change does not commit, the file goes back to the upload. Its
   * conversion starts once the change has committed.
   */
  async stageVideo(upload: FinishedUpload): Promise<NewVideo> {
    const format = await checkVideoFile(upload.path, upload.filename).catch((error: unknown) =>
      error instanceof MediaRejectedError ? this.refuseUpload(upload, error) : Promise.reject(error),
    )
    const video: NewVideo = { id: crypto.randomUUID(), filename: upload.filename, format }
    // A local upload is moved; a copy of one in the bucket is sent there, and the upload stays.
    await keepOriginal(video.id, format, upload.path, upload.temporary ? 'copy' : 'move')
    this.#staged.push({ upload, video })
    return video
  }

  /**
   * Checks, encodes and stores an upload. Call it before opening the transaction: encoding
   * takes a while, and a transaction holds the SQLite write lock. Throws MediaRejectedError.
   */
  async storeImage(source: ImageSource | FinishedUpload, preset: ImagePresetName): Promise<StoredImage> {
    const upload = this.#taken.find((taken) => taken === source)
    let files
    try {
      files = await storeImageFiles(upload ? { path: upload.path, size: upload.size, name: upload.filename } : source, preset)
    } catch (error) {
      if (upload && error instanceof MediaRejectedError) await this.refuseUpload(upload, error)
      throw error
    }
    this.filesStored(files.variants.map((v) => v.key))
    return files
  }

  /** Stores several uploads one after the other (each is decoded in memory while it is encoded). */
  async storeImages(sources: readonly ImageSource[], preset: ImagePresetName): Promise<StoredImage[]> {
    const stored: StoredImage[] = []
    for (const source of sources) stored.push(await this.storeImage(source, preset))
    return stored
  }

  /**
   * Runs `work` in a transaction. Rows whose images were replaced or removed are deleted at its
   * end (after `work` has dropped its references to them), their files after the commit.
   */
  async transaction<T>(executor: Db, work: (trx: Db) => Promise<T>): Promise<T> {
    try {
      const result = await executor.transaction().execute(async (trx) => {
        const value = await work(trx)
        for (const task of this.#beforeCommit.splice(0)) await task(trx)
        return value
      })
      this.#released.push(...this.#releasing.splice(0))
      this.#afterCommit.push(...this.#pendingAfterCommit.splice(0))
      this.#committed = true
      return result
    } catch (error) {
      // Rolled back: the rows it removed are still there, and so must their files be.
      this.#beforeCommit = []
      this.#releasing = []
      this.#pendingAfterCommit = []
      throw error
    }
  }

  /** Records a stored image; returns its id for the record to refer to. */
  async attach(trx: Db, image: StoredImage, alt: string): Promise<string> {
    return (await insertImage(trx, image, alt)).id
  }

  /**
   * A record's single image after an edit: a new upload replaces the current image, `remove`
   * drops it, otherwise the current one gets the new description. Returns the id the record
   * refers to now (or null).
   */
  async replace(trx: Db, currentId: string | null, change: ImageChange): Promise<string | null> {
    if (change.upload) {
      await this.remove(trx, currentId)
      return this.attach(trx, change.upload, change.alt)
    }
    if (change.remove) {
      await this.remove(trx, currentId)
      return null
    }
    if (currentId) await trx.updateTable('images').set({ alt: change.alt }).where('id', '=', currentId).execute()
    return currentId
  }

  /** Removes an image (row at the end of the transaction, files after the commit). */
  async remove(_trx: Db, id: string | null): Promise<void> {
    if (id) this.#removeRows([id])
  }

  /**
   * An ordered list of images after an edit: the kept ones in their new order, then the new
   * ones; the rest are removed. Returns the ids in order for the record to store.
   */
  async syncImages(trx: Db, change: ImageListChange): Promise<string[]> {
    const current = new Set(change.current)
    const kept = [...new Set(change.keep)].filter((id) => current.has(id))
    if (change.max && kept.length + change.add.length > change.max.count) {
      throw new MediaRejectedError(change.max.message)
    }
    this.#removeRows(change.current.filter((id) => !kept.includes(id)))
    if (kept.length > 0) await trx.updateTable('images').set({ alt: change.alt }).where('id', 'in', kept).execute()
    const added: string[] = []
    for (const image of change.add) added.push(await this.attach(trx, image, change.alt))
    return [...kept, ...added]
  }

  /** Files written by this change (of any kind): deleted again if the change fails. */
  filesStored(keys: readonly string[]): void {
    this.#stored.push(...keys)
  }

  /** Files no longer referenced once this change's transaction commits. */
  releaseFilesAfterCommit(keys: readonly string[]): void {
    this.#releasing.push(...keys)
  }

  /** Work to do at the end of the transaction, e.g. deleting rows whose references `work` removed. */
  beforeCommit(task: (trx: Db) => Promise<void>): void {
    this.#beforeCommit.push(task)
  }

  /**
   * Work once this change's transaction has committed, such as removing private working files
   * of what it deleted (not stored files: see releaseFilesAfterCommit). A failure is logged.
   */
  afterCommit(task: () => Promise<void>): void {
    this.#pendingAfterCommit.push(task)
  }

  #removeRows(ids: readonly string[]): void {
    if (ids.length === 0) return
    this.beforeCommit(async (trx) => this.releaseFilesAfterCommit(await deleteImageRows(trx, ids)))
  }

  /** Runs `work` with a new change, then deletes what the outcome leaves unreferenced. */
  static async run<T>(work: (media: MediaChange) => Promise<T>): Promise<T> {
    const media = new MediaChange()
    let result: T
    try {
      result = await work(media)
    } catch (error) {
      await media.#finish(false)
      throw error
    }
    await media.#finish(true)
    return result
  }

  async #finish(succeeded: boolean): Promise<void> {
    await Promise.all(this.#taken.map((upload) => releaseFinishedUpload(upload)))
    // Once committed, the new files are referenced whatever happened afterwards.
    if (this.#committed) {
      if (this.#staged.length > 0) requestVideoRun()
      await Promise.all([
        deleteStoredFiles(this.#released),
        // What the uploads held is stored or staged now.
        ...this.#taken.map((upload) =>
          discardUpload(upload.id).catch((error) => logger.error({ err: error }, 'a used upload could not be discarded')),
        ),
        ...this.#afterCommit.map((task) =>
          task().catch((error) => logger.error({ err: error }, 'work after a media change failed')),
        ),
      ])
      return
    }
    // Not recorded: the staged videos' files go back to their uploads, for the form to be sent again.
    for (const { upload, video } of this.#staged.splice(0)) await returnOriginal(video.id, video.format, upload.path)
    const pending = [this.#stored, this.#beforeCommit, this.#releasing, this.#pendingAfterCommit]
    if (succeeded && pending.some((list) => list.length > 0)) {
      // Recorded through another transaction, perhaps: deleting could break committed rows.
      // Files nothing refers to are removed by the sweep of unreferenced files.
      throw new Error('A media change stored or removed media without committing media.transaction()')
    }
    await deleteStoredFiles(this.#stored)
  }
}

/**
 * Runs one change of records and their media (see MediaChange). If `work` fails before its
 * transaction commits, the files it stored are deleted; once committed, the files it replaced
 * or removed are.
 */
export function withMediaChange<T>(work: (media: MediaChange) => Promise<T>): Promise<T> {
  return MediaChange.run(work)
}
