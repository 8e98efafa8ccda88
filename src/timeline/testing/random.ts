/** Seeded pseudo-random numbers for property tests (mulberry32): failures replay exactly. */
export { seededRandom } from '../../../scripts/gen/random.ts';
