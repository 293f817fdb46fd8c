// Process bookkeeping for test helpers (a process family, strays found by an environment marker, stopping by PID):
// the virtual desktop's own.
export { descendantsOf, isAlive, processesWithEnv, terminate, waitGone } from '../../main/desktop/processes.js';
