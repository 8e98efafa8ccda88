/**
 * The one path to the shared, read-only fixtures (real captures too big or too licensed to commit;
 * each has a provenance line in ../shared/fixtures/README.md). Tests, e2e specs and the fuzz
 * corpus name fixtures only through this module.
 */
import { fileURLToPath } from 'node:url';

/** Absolute path of the shared fixtures folder, with a trailing slash (independent of the working directory). */
export const SHARED_FIXTURES = fileURLToPath(new URL('../../shared/fixtures/', import.meta.url));

/** Absolute path of one shared fixture, e.g. `sharedFixture('nsys/fuser-report1.sqlite')`. */
export function sharedFixture(relativePath: string): string {
  return SHARED_FIXTURES + relativePath;
}

/** The real Nsight Systems 2025.1.1 export most nsys, CUDA and statistics tests read. */
export const NSYS_FIXTURE = sharedFixture('nsys/fuser-report1.sqlite');
