import { createMemoryEventLog, openEventLog } from '../../../../daemon/store/event-log/index.js';
import { tempDir } from '../../../helpers/temp-dir.js';
import { runLogConformance } from './log-conformance.js';

/** One suite, every implementation: the memory log must behave exactly like the file log (PostgreSQL's: tests/daemon/store/postgres). */
runLogConformance('memory', async (clock) => createMemoryEventLog({ clock }));
runLogConformance('file', async (clock) => openEventLog(tempDir('svc-events'), { clock, segmentBytes: 64 * 1024 }));
