// seeded_random.js — the uniform generator Week 6's rank programs draw from (mulberry32, as exercise/random.js), written
// as a plain function so a program can ship its source text to the Workers and the checker can run the same draws here.
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
