/**
 * Loaded into the profiled server with `node --import` (bench/profile.ts --allocations): V8's
 * sampling heap profiler, counting objects the garbage collector has already freed too (most of
 * a page's objects live for one request), written to ALLOCATION_PROFILE when the server exits.
 */
import fs from 'node:fs'
import inspector from 'node:inspector'

const session = new inspector.Session()
session.connect()
session.post('HeapProfiler.startSampling', {
  samplingInterval: 16 * 1024,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
})
// An in-process session answers at once, so the profile is written before the process ends.
process.on('exit', () => {
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error) fs.writeFileSync(process.env.ALLOCATION_PROFILE, JSON.stringify(result.profile))
  })
})
