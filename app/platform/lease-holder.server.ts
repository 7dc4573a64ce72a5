import crypto from 'node:crypto'
import fs from 'node:fs'

/**
 * Lease tokens that name the process holding the lease, so that a process on the same machine can
 * tell when the holder is gone (killed, crashed) and take its job over at once instead of waiting
 * for the lease to run out. A process is named by its machine (this boot of the kernel and the
 * PID namespace: containers on one machine each have their own), its PID and the moment it
 * started (PIDs are reused). Several processes may share one database, on this machine or others:
 * a holder on another machine cannot be checked, and its leases run out as before. Without /proc
 * (not Linux) every holder is unknown.
 */

interface ProcessStat {
  state: string
  /** Clock ticks from boot to the process's start. */
  startTicks: string
}

/** A process's state and start from /proc/<pid>/stat, or null where that cannot be read. */
function readProcessStat(pid: number): ProcessStat | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // `pid (name) state ppid ...`: the name may hold spaces and parentheses, so fields count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0], startTicks: fields[19] }
  } catch {
    return null
  }
}

function readMachine(): string | null {
  try {
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
    const pidNamespace = fs.readlinkSync('/proc/self/ns/pid').replace(/\D/g, '')
    return `${boot}-${pidNamespace}`
  } catch {
    return null
  }
}

const thisMachine = readMachine()

/**
 * A new token for a lease held by the process `pid` of this machine: this process, or in tests one
 * they then end. `<machine>/<pid>/<start>/<random>`, or `unknown/<random>` where that cannot be told.
 */
export function newLeaseToken(pid = process.pid): string {
  const stat = readProcessStat(pid)
  const holder = thisMachine && stat ? `${thisMachine}/${pid}/${stat.startTicks}` : 'unknown'
  return `${holder}/${crypto.randomUUID()}`
}

/** The lease was taken by a process of this machine that has since exited or been killed. */
export function isLeaseOfGoneProcess(token: string): boolean {
  const [machine, pidText, startTicks] = token.split('/')
  // Only a plain PID: 0 and negative numbers would name process groups below.
  if (!thisMachine || machine !== thisMachine || !/^[1-9]\d*$/.test(pidText ?? '') || !startTicks) return false
  const pid = Number(pidText)
  const stat = readProcessStat(pid)
  // Another process under the same PID, or one that has exited and waits for its parent to notice.
  if (stat) return stat.startTicks !== startTicks || stat.state === 'Z' || stat.state === 'X'
  // Hidden from us (/proc mounted with hidepid): there unless there is no such process.
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}
