// A/B Lighthouse: A and B web dists behind static servers proxying /api to GATEWAY; alternating runs.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import compress from '@fastify/compress';
import replyFrom from '@fastify/reply-from';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import lighthouse from 'lighthouse';
const GATEWAY = process.env.GATEWAY ?? 'http://localhost:3180';
const RUNS = Number(process.env.RUNS ?? 5);
const PAGES = (process.env.PAGES ?? '/auth').split(',');
async function server(dist: string, port: number) {
  const app = Fastify({ logger: false });
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(replyFrom, { base: GATEWAY });
  await app.register(fastifyStatic, { root: dist, preCompressed: true, cacheControl: false, setHeaders: (res, p) => res.setHeader('cache-control', p.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache') });
  app.all('/api/*', (req, reply) => reply.from(req.url));
  app.setNotFoundHandler((req, reply) => (req.method === 'GET' ? reply.header('cache-control', 'no-cache').sendFile('index.html') : reply.status(404).send()));
  await app.listen({ port, host: '127.0.0.1' });
  return `http://localhost:${port}`;
}
const a = await server(process.env.A!, 3191), b = await server(process.env.B!, 3192);
let cookie = '';
if (process.env.EMAIL) {
  const r = await fetch(`${GATEWAY}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: GATEWAY }, body: JSON.stringify({ email: process.env.EMAIL, password: 'linen-dreams-42' }) });
  cookie = r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}
async function run(origin: string, path: string) {
  const port = 9300 + Math.floor(Math.random() * 500);
  const profile = await mkdtemp(join(tmpdir(), 'ab-chr-'));
  const chr = spawn('/usr/bin/chromium', ['--headless=new', '--no-sandbox', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, '--no-first-run', 'about:blank'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) { try { await fetch(`http://127.0.0.1:${port}/json/version`); break; } catch { await new Promise((r) => setTimeout(r, 100)); } }
  try {
    const res = await lighthouse(`${origin}${path}`, { port, onlyCategories: ['performance'], output: 'json', logLevel: 'error', extraHeaders: cookie ? { cookie } : undefined });
    const l = res!.lhr; const v = (id: string) => Math.round(l.audits[id]?.numericValue ?? NaN);
    if (new URL(l.finalDisplayedUrl).pathname !== path) throw new Error('ended on ' + l.finalDisplayedUrl);
    return { score: l.categories.performance!.score!, fcp: v('first-contentful-paint'), lcp: v('largest-contentful-paint'), tbt: v('total-blocking-time'), bi: Math.round(l.environment.benchmarkIndex) };
  } finally { chr.kill('SIGKILL'); await rm(profile, { recursive: true, force: true }); }
}
for (const path of PAGES) {
  const res: Record<string, any[]> = { A: [], B: [] };
  for (let i = 0; i < RUNS; i++) for (const [n, o] of i % 2 ? [['B', b], ['A', a]] : [['A', a], ['B', b]]) res[n].push(await run(o, path));
  for (const n of ['A', 'B']) { const s = res[n].map((r) => r.score).sort(); console.log(path, n, 'median', s[Math.floor(s.length / 2)], JSON.stringify(res[n].map((r) => `${r.score} lcp${r.lcp} tbt${r.tbt} fcp${r.fcp} bi${r.bi}`))); }
}
process.exit(0);
