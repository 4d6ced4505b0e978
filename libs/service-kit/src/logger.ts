import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(service: string, level: string = 'info', format: 'json' | 'pretty' = 'json'): Logger {
  return pino({
    name: service,
    level,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.passwordHash'],
      censor: '[redacted]',
    },
    ...(format === 'pretty'
      ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname,name', translateTime: 'HH:MM:ss', singleLine: true } } }
      : {}),
  });
}
