import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(service: string, level: string = 'info'): Logger {
  return pino({
    name: service,
    level,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.passwordHash'],
      censor: '[redacted]',
    },
  });
}
