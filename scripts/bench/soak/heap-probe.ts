/**
 * Preloaded into the soaked server (`node --expose-gc --require heap-probe.js`): what its
 * JavaScript heap holds once the garbage is collected, which resident memory does not say (V8 grows
 * its heap under allocation pressure and gives pages back lazily, and the allocator keeps freed
 * native memory). Every SOAK_HEAP_EVERY_MS it collects and prints one line the soak reads; on
 * SIGUSR2 (SOAK_HEAP=1) it writes a heap snapshot into SOAK_HEAP_DIR (comparing two shows what grew).
 */
import path from 'node:path';
import v8 from 'node:v8';

const gc = (globalThis as { gc?: () => void }).gc;
const every = Number(process.env.SOAK_HEAP_EVERY_MS ?? 30_000);
const dir = process.env.SOAK_HEAP_DIR ?? process.cwd();

/**
 * One line on stdout: `[soak-heap] {"at":..,"heapUsed":..,...}` (bytes) measured after a full
 * collection, with the heap V8 had reserved just before it (`heapTotalBefore`: what resident
 * memory follows, garbage included).
 */
function report(): void {
  const heapTotalBefore = process.memoryUsage().heapTotal;
  gc?.();
  console.log(`[soak-heap] ${JSON.stringify({ at: Date.now(), heapTotalBefore, ...process.memoryUsage() })}`);
}

if (gc) {
  setInterval(report, every).unref();
  let snapshots = 0;
  process.on('SIGUSR2', () => {
    snapshots += 1;
    report();
    const file = v8.writeHeapSnapshot(path.join(dir, `soak-${snapshots}.heapsnapshot`));
    console.log(`[soak-heap-snapshot] ${file}`);
  });
}
