import { existsSync } from 'node:fs';
import { constants as zlibConstants } from 'node:zlib';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import helmet, { type HelmetOptions } from 'helmet';
import {
  sessionCookieNames,
  SIGNED_IN_AS_SOMEONE_ELSE,
  SIGNED_IN_USER_HEADER,
  NOT_CONFIRMED_MESSAGE,
  TEMPORARILY_UNAVAILABLE_MESSAGE,
} from '@sleepweave/contracts';
import {
  badRequest,
  callService,
  createHttpApp,
  forbidden,
  isSuccess,
  notFound,
  notFoundJson,
  POLLED_ROUTE,
  unauthorized,
  type ServiceApp,
} from '@sleepweave/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from './config.ts';
import type { GatewayDeps } from './deps.ts';
import { isAllowedOrigin, isForeignFetch } from './origin.ts';
import { isChange, ServiceProxy, sendAnswer, type ProxyAnswer } from './proxy.ts';
import { findRoute, isAppPath, isPlainPath } from './routing.ts';
import type { ResolvedSession } from './session.ts';
import { socketRoutes } from './sockets.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: ResolvedSession | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** How long the services' answers to /health are reused by the gateway's (below). */
export const UPSTREAM_HEALTH_REUSE_MS = 1_000;
const CROSS_ORIGIN_REFUSED = 'Cross-origin request refused.';

const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'usb',
  'browsing-topics',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/** The headers helmet sets with these options, as a plain object (helmet is middleware: it is run once on a stand-in response). */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as never, response as never, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/** A script or stylesheet of the web build (/assets/*.js, *.css). */
const isBuildScript = (url: string) => url.startsWith('/assets/') && /\.(?:js|css)$/.test(url.split('?')[0]!);

/** Answers smaller than this go out uncompressed. */
const COMPRESS_THRESHOLD = 1024;

/**
 * Brotli at quality 4 (@fastify/compress's own choice) with a window of 256 KiB (2^18), not
 * brotli's 4 MiB: with the larger one a streamed answer came out only at its end. The admin's
 * sleep CSV of 1,500 participants (6.4 MB) reached the browser after 2.1 s, in one go, where
 * gzip's first bytes left after 0.17 s; its brotli is 1% smaller with this window, and made
 * in half the time. An answer under 256 KiB (every JSON one) is compressed as before.
 */
const BROTLI_OPTIONS = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4, [zlibConstants.BROTLI_PARAM_LGWIN]: 18 } };

/** A Set-Cookie header's cookie name. */
const cookieName = (header: string) => header.slice(0, header.indexOf('=')).trim();

/**
 * The gateway's cookies followed by the service's Set-Cookie headers, without those of the
 * gateway's that the service sets too (the service's come last, and are the only ones).
 */
function withCookiesOf(gateway: readonly string[], service: string | string[] | undefined): string[] {
  const own = service === undefined ? [] : [service].flat();
  const named = new Set(own.map(cookieName));
  return [...gateway.filter((header) => !named.has(cookieName(header))), ...own];
}

function cookieSecure(config: GatewayConfig): boolean {
  return new URL(config.APP_URL).protocol === 'https:';
}

export async function buildGateway(deps: GatewayDeps): Promise<ServiceApp> {
  const { config, sessions } = deps;
  const cookieNames = sessionCookieNames(config.APP_URL);
  const spa = existsSync(config.WEB_DIST);
  const app = createHttpApp({
    logger: deps.logger,
    trustProxy: config.TRUST_PROXY,
    // The SPA's index.html for every other GET (and HEAD) that is not an API call: the browser router decides.
    notFound: (request, reply) => {
      const path = request.url.split('?')[0]!;
      if (spa && (request.method === 'GET' || request.method === 'HEAD') && isAppPath(path)) {
        return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
      }
      return notFoundJson(request, reply);
    },
  });

  // Only JSON bodies: a cross-site HTML form (urlencoded, multipart, text/plain) cannot post here.
  app.removeContentTypeParser('text/plain');

  await app.register(cookie);
  // JSON and text answers over 1 KB go out compressed (brotli or gzip, as the browser
  // accepts); the SPA's files are compressed at build time instead, and zips are left alone.
  await app.register(compress, { threshold: COMPRESS_THRESHOLD, encodings: ['br', 'gzip'], brotliOptions: BROTLI_OPTIONS });
  // The security headers (CSP and the rest), worked out once by helmet and sent as they are:
  // @fastify/helmet rebuilt them on every request.
  const securityHeaders = helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // radix primitives set inline styles (positioning, scroll locking)
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: cookieSecure(config) ? [] : null,
      },
    },
    strictTransportSecurity: cookieSecure(config) ? undefined : false,
    crossOriginEmbedderPolicy: false,
    // as the CSP's frame-ancestors 'none' says, for browsers that read only this (SAMEORIGIN by default)
    xFrameOptions: { action: 'deny' },
  });
  // Every answer's headers, and the Origin check of a mutating request, in one hook (a
  // callback: an async hook costs a promise and a turn of the microtask queue each).
  const headersOfEveryAnswer = {
    ...securityHeaders,
    // No feature of the browser's that the app does not use.
    'permissions-policy': PERMISSIONS_POLICY,
  };
  // The build's scripts and stylesheets carry only the headers that mean something for a
  // script or a stylesheet: the others (the CSP, framing, COOP, Permissions-Policy...) are
  // read from documents only. A page load fetches some 30 of them, and the rest was about
  // 800 bytes each, uncompressed (HTTP/1.1), ahead of the app on a slow connection.
  const headersOfAScript: Record<string, string> = {
    'x-content-type-options': securityHeaders['x-content-type-options']!,
    'cross-origin-resource-policy': securityHeaders['cross-origin-resource-policy']!,
    'referrer-policy': securityHeaders['referrer-policy']!,
  };
  // The API's answers (JSON, the library's illustrations, the exports' downloads) are never
  // pages of the app: they carry what OWASP's REST Security Cheat Sheet asks of an API
  // (nothing in them may run, be framed, be sniffed or be read by another site) instead of a
  // page's 13 headers, some 750 bytes a call. Not kept, unless a service says otherwise for
  // an answer of its own (the library's illustrations). Over https, HSTS on every answer.
  const headersOfAnApiAnswer: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': securityHeaders['x-content-type-options']!,
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': securityHeaders['cross-origin-resource-policy']!,
    'cache-control': 'no-store',
  };
  const hsts = securityHeaders['strict-transport-security'];
  if (hsts) headersOfAScript['strict-transport-security'] = headersOfAnApiAnswer['strict-transport-security'] = hsts;
  // A proxy in front that TRUST_PROXY does not name: every client then has the proxy's
  // address, and the limits on sign-in, registration and sockets are shared by all of them.
  // Said once (a client may send the header herself; it is ignored either way).
  let proxyUnnamed = config.TRUST_PROXY === false;
  app.addHook('onRequest', (request, reply, done) => {
    if (proxyUnnamed && request.headers['x-forwarded-for'] !== undefined) {
      proxyUnnamed = false;
      request.log.warn(
        'a request came through a proxy (X-Forwarded-For) but TRUST_PROXY is off: every client then has the address of the proxy, and the limits per client are shared by all; set TRUST_PROXY to the number of proxies in front or their addresses',
      );
    }
    const url = request.url;
    reply.headers(
      url.startsWith('/api') || url === '/health' || url === '/health/ready'
        ? headersOfAnApiAnswer
        : isBuildScript(url)
          ? headersOfAScript
          : headersOfEveryAnswer,
    );
    if (!SAFE_METHODS.has(request.method) && !isAllowedOrigin(request.headers.origin, config.APP_URL)) {
      done(forbidden(CROSS_ORIGIN_REFUSED));
      return;
    }
    done();
  });
  // The services' connection pools (keep-alive); closed with the app.
  const services = new ServiceProxy(deps.proxy);
  app.addHook('onClose', () => services.close());
  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    // A frame the protocol does not allow (bad UTF-8, unmasked, too large ...) is the
    // client's fault, which anyone signed in can repeat: one info line, not an error with its
    // stack; ws has closed the socket with the code that says why. Anything else is ours.
    errorHandler: (error, socket, request) => {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('WS_ERR_'))
        request.log.info({ code, reason: error.message }, 'socket closed: a frame the protocol refuses');
      else request.log.error({ err: error }, 'socket failed');
      socket.terminate();
    },
  });

  app.decorateRequest('session', null);

  /**
   * A renewed access token as its Set-Cookie header (and the refresh token that replaced the
   * one used). Serialized here rather than through reply.setCookie, which writes only as the
   * answer leaves, after the service's own cookies: a logout's cleared cookies would come
   * first and be overridden by these.
   */
  function renewedCookies(session: ResolvedSession | null): string[] {
    if (!session?.renewed) return [];
    const options = { httpOnly: true, sameSite: 'lax' as const, secure: cookieSecure(config), path: '/' };
    const cookies = [
      app.serializeCookie(cookieNames.access, session.renewed.accessToken, { ...options, maxAge: session.renewed.maxAgeSeconds }),
    ];
    const { refresh } = session.renewed;
    if (refresh) cookies.push(app.serializeCookie(cookieNames.refresh, refresh.token, { ...options, maxAge: refresh.maxAgeSeconds }));
    return cookies;
  }

  /**
   * The services' answers to their /health, asked at most once every UPSTREAM_HEALTH_REUSE_MS
   * however often the gateway's is asked, and shared by the requests meanwhile: the
   * gateway's /health is public, and each asking opened a connection to every service and a
   * query of its database (a flood of them filled the gateway's ports).
   */
  let upstreamHealth: { at: number; checks: Promise<Record<string, string>> } | null = null;
  const checkUpstreams = () => {
    if (upstreamHealth && Date.now() - upstreamHealth.at < UPSTREAM_HEALTH_REUSE_MS) return upstreamHealth.checks;
    const checks: Record<string, string> = {};
    const asked = Promise.all(
      Object.entries(deps.upstreams).map(async ([name, url]) => {
        try {
          checks[name] = isSuccess(await callService(new URL('/health', url), { timeoutMs: 2_000 })) ? 'ok' : 'down';
        } catch {
          checks[name] = 'down';
        }
      }),
    ).then(() => checks);
    upstreamHealth = { at: Date.now(), checks: asked };
    return asked;
  };

  /** This instance's own checks: NATS and the watches its answers depend on. */
  const ownChecks = () => {
    const checks: Record<string, string> = { nats: deps.bus.isConnected() ? 'ok' : 'down' };
    for (const [name, watch] of Object.entries(deps.watches ?? {})) checks[`watch:${name}`] = watch.state();
    return checks;
  };
  const healthAnswer = (request: FastifyRequest, reply: FastifyReply, checks: Record<string, string>) => {
    const ok = Object.values(checks).every((value) => value === 'ok' || value === 'following');
    // (its answers are not logged: POLLED_ROUTE) what is wrong is, at each poll while it is
    if (!ok) request.log.warn({ checks }, 'degraded');
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', service: 'gateway', checks });
  };
  // The whole system: this instance and every service (for monitoring, and for compose).
  app.get('/health', POLLED_ROUTE, async (request, reply) => healthAnswer(request, reply, { ...ownChecks(), ...(await checkUpstreams()) }));
  // This instance alone, for a load balancer choosing among gateways: a service catching up
  // or down is every instance's alike, and dropping them all for it took the site down.
  app.get('/health/ready', POLLED_ROUTE, async (request, reply) => healthAnswer(request, reply, ownChecks()));

  async function proxy(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0]!;
    // The path is routed as sent and forwarded as sent: one that a URL parser would
    // rewrite (dot segments, backslashes, encoded separators) could reach another route.
    if (!isPlainPath(path)) throw badRequest('Invalid path.');
    const route = findRoute(request.method, path);
    // Nothing with her session that a page elsewhere made her browser send: some reads have
    // an effect (an admin's are audited; opening a thread joins it; an export counts against
    // her limit), and the app's own calls are same-origin.
    if (route && route.access !== 'public' && isForeignFetch(request.headers['sec-fetch-site'], request.headers.accept)) {
      throw forbidden(CROSS_ORIGIN_REFUSED);
    }
    const upstream = route && deps.upstreams[route.service];
    if (!route || !upstream) throw notFound(`No route for ${request.method} ${path}`);

    let session: ResolvedSession | null = null;
    let renewed: string[] = [];
    if (route.access !== 'public') {
      session = await sessions.resolve(request);
      if (!session && route.access !== 'optional') {
        // (as set: a __Host- cookie is cleared only by a Secure Set-Cookie)
        reply.clearCookie(cookieNames.access, { path: '/', secure: cookieSecure(config) });
        // a refresh cookie that got her no session is dead (ended, or not one of ours)
        if (request.cookies[cookieNames.refresh] !== undefined)
          reply.clearCookie(cookieNames.refresh, { path: '/', secure: cookieSecure(config) });
        throw unauthorized();
      }
      // A renewed session's cookies go back with any answer, a refusal or a 503 too: the
      // refresh token was rotated.
      renewed = renewedCookies(session);
      if (renewed.length > 0) reply.header('set-cookie', renewed);
      // A tab opened for another user than the session's (contracts: SIGNED_IN_USER_HEADER):
      // what it sends was written by her. Her session is not this one: it is left as it is.
      const openedFor = request.headers[SIGNED_IN_USER_HEADER];
      if (session && typeof openedFor === 'string' && openedFor !== session.claims.sub) throw unauthorized(SIGNED_IN_AS_SOMEONE_ELSE);
      // Admin rights are checked here and again in the service.
      if (route.access === 'admin' && session?.claims.role !== 'admin') throw forbidden();
    }
    request.session = session;

    const headers: Record<string, string> = {
      'x-correlation-id': request.correlationId,
      'x-request-id': request.id,
      'x-forwarded-for': request.ip,
    };
    if (session) headers.authorization = `Bearer ${session.accessToken}`;
    let answer: ProxyAnswer;
    try {
      answer = await services.forward(request, { origin: upstream, headers, cookies: route.cookies === true });
    } catch (err) {
      // The service is down or restarting: a clear 503 (504 when it did not answer in time), never a 500.
      // A change it did not answer in time may still be made once it goes on: not said to have failed.
      const code = (err as { code?: string }).code;
      const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
      request.log.warn({ err, service: route.service }, 'service did not answer');
      return reply
        .status(timedOut ? 504 : 503)
        .header('retry-after', '5')
        .send({
          error: 'unavailable',
          message: timedOut && isChange(request.method) ? NOT_CONFIRMED_MESSAGE : TEMPORARILY_UNAVAILABLE_MESSAGE,
        });
    }
    // The renewed cookies go with the service's, except one the service sets itself: a
    // logout or an account deletion clears both, and its word is the last.
    if (renewed.length > 0) {
      reply.removeHeader('set-cookie');
      answer.headers['set-cookie'] = withCookiesOf(renewed, answer.headers['set-cookie']);
    }
    return sendAnswer(reply, answer);
  }

  app.all('/api', proxy);
  app.all('/api/*', proxy);

  await socketRoutes(app, deps);

  // The SPA: files from the web build.
  if (spa) {
    await app.register(fastifyStatic, {
      root: config.WEB_DIST,
      // served from disk on each request, so a rebuild needs no restart
      wildcard: true,
      index: ['index.html'],
      // the build's .br/.gz copies (web/precompress.ts) to browsers that accept them
      preCompressed: true,
      // @fastify/static would overwrite a Cache-Control set in setHeaders with its own.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // Vite fingerprints /assets/*; everything else (index.html) must be revalidated.
        res.setHeader('cache-control', filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else {
    deps.logger.warn({ dir: config.WEB_DIST }, 'web build not found: run `npm run build` to serve the app');
  }
  return app;
}
