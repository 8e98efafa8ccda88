import init from '@sqlite.org/sqlite-wasm';
import { openSync, readSync, fstatSync } from 'node:fs';
const sqlite3 = await init();
const { capi, wasm } = sqlite3;
console.log(sqlite3.version.libVersion);
const fd = openSync(process.argv[2], 'r');
const size = fstatSync(fd).size;
let reads = 0, bytesRead = 0;
const files = new Map();
const io = new capi.sqlite3_io_methods();
io.$iVersion = 1;
const vfs = new capi.sqlite3_vfs();
const dflt = new capi.sqlite3_vfs(capi.sqlite3_vfs_find(null));
vfs.$iVersion = 2;
vfs.$szOsFile = capi.sqlite3_file.structInfo.sizeof;
vfs.$mxPathname = 1024;
vfs.$xRandomness = dflt.$xRandomness; vfs.$xSleep = dflt.$xSleep; vfs.$xCurrentTime = dflt.$xCurrentTime; vfs.$xCurrentTimeInt64 = dflt.$xCurrentTimeInt64; vfs.$xGetLastError = dflt.$xGetLastError;
const SQLITE_OK = 0;
sqlite3.vfs.installVfs({
  io: { struct: io, methods: {
    xClose: (f) => { files.delete(f); return 0; },
    xRead: (f, dest, n, off) => {
      const offset = Number(off); reads++;
      const avail = Math.max(0, Math.min(n, size - offset));
      const heap = wasm.heap8u();
      const view = heap.subarray(dest, dest + n);
      let got = 0;
      if (avail > 0) got = readSync(fd, view, 0, avail, offset);
      bytesRead += got;
      if (got < n) { view.fill(0, got); return capi.SQLITE_IOERR_SHORT_READ; }
      return 0;
    },
    xWrite: () => capi.SQLITE_READONLY,
    xTruncate: () => capi.SQLITE_READONLY,
    xSync: () => 0,
    xFileSize: (f, p) => { wasm.poke64(p, BigInt(size)); return 0; },
    xLock: () => 0, xUnlock: () => 0,
    xCheckReservedLock: (f, p) => { wasm.poke32(p, 0); return 0; },
    xFileControl: () => capi.SQLITE_NOTFOUND,
    xSectorSize: () => 4096,
    xDeviceCharacteristics: () => capi.SQLITE_IOCAP_IMMUTABLE,
  }},
  vfs: { struct: vfs, name: 'nvtxview-paged', methods: {
    xOpen: (pVfs, zName, pFile, flags, pOut) => {
      const f = new capi.sqlite3_file(pFile);
      f.$pMethods = io.pointer;
      files.set(pFile, true);
      if (pOut) wasm.poke32(pOut, capi.SQLITE_OPEN_READONLY);
      f.dispose();
      return 0;
    },
    xDelete: () => 0,
    xAccess: (v, z, fl, p) => { wasm.poke32(p, 0); return 0; },
    xFullPathname: (v, z, n, out) => { const s = wasm.cstrToJs(z); const k = wasm.cstrncpy(out, z, n); return k < n ? 0 : capi.SQLITE_CANTOPEN; },
  }},
});
const t0 = performance.now();
const db = new sqlite3.oo1.DB({ filename: 'file:capture?immutable=1', flags: 'r', vfs: 'nvtxview-paged' });
db.exec('PRAGMA temp_store=MEMORY');
for (const sql of ["select count(*) from sqlite_master", "select count(*) from CUPTI_ACTIVITY_KIND_KERNEL", "select sum(start) from NVTX_EVENTS"]) {
  try { console.log(sql, db.selectValue(sql)); } catch (e) { console.log(sql, e.message); }
}
console.log('ms', performance.now() - t0, 'reads', reads, 'bytes', bytesRead, 'size', size);
db.close();
