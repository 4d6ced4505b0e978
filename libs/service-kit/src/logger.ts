import pino, { type Logger } from 'pino';

export type { Logger };

/** Query parameters whose values never reach a log line (password-reset links carry `token`). */
const SECRET_PARAMS = /([?&](?:token|refreshToken|password)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  hostname?: string;
  ip?: string;
  socket?: { remoteAddress?: string; remotePort?: number };
}

export function createLogger(service: string, level: string = 'info', format: 'json' | 'pretty' = 'json'): Logger {
  return pino({
    name: service,
    level,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.passwordHash'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: req.url === undefined ? undefined : redactUrl(req.url),
        host: req.host ?? req.hostname,
        remoteAddress: req.ip ?? req.socket?.remoteAddress,
      }),
    },
    ...(format === 'pretty'
      ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname,name', translateTime: 'HH:MM:ss', singleLine: true } } }
      : {}),
  });
}
