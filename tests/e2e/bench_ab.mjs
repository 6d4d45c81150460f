// Two (or more) builds of this app side by side: whole app ready on each page, the builds'
// loads alternated in one browser, so that the machine's drift falls on all of them alike.
// Lighthouse's mobile profile and the marks of bench_mobile.mjs (`mobile.mjs`); no peer.
//
//   DISTS="/abs/dist-before /abs/dist-after" PAGES="?view=patches,?view=train" N=7 node bench_ab.mjs
//
// Prints, per page, each build's median and its loads (ms from navigation), and in how many of
// the N rounds each later build was sooner than the first.
import { serve, launch } from './lib.mjs';
import { benchPage, watch, wholeApp } from './mobile.mjs';

const dists = (process.env.DISTS ?? '').split(' ').filter(Boolean);
if (dists.length < 2) throw new Error('DISTS: two or more built sites, separated by spaces');
const pages = (process.env.PAGES ?? '').split(',').map((p) => p.trim() || '?');
const rounds = Math.max(1, Number(process.env.N ?? 7));

const servers = await Promise.all(dists.map((d) => serve(d, '/', { compress: true })));
const browser = await launch();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log(`| page | ${dists.map((d) => `${d.split('/').pop()} median ms`).join(' | ')} | loads |`);
console.log(`|---|${dists.map(() => '---|').join('')}---|`);
for (const query of pages) {
  const ready = dists.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < dists.length; k++) {
      const { context, page } = await benchPage(browser);
      await page.addInitScript(watch(false));
      await page.goto(servers[k].url + query);
      ready[k].push((await wholeApp(page)).ready);
      await context.close();
    }
  }
  const sooner = ready.slice(1).map((r) => r.filter((t, i) => t < ready[0][i]).length);
  console.log(`| \`${query}\` | ${ready.map((r) => median(r).toFixed(0)).join(' | ')} | ${ready.map((r) => r.map((t) => t.toFixed(0)).join(' ')).join(' / ')}; sooner than the first in ${sooner.map((n) => `${n} of ${rounds}`).join(', ')} |`);
}
await browser.close();
await Promise.all(servers.map((s) => s.close()));
