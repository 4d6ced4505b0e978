import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BaseConfig, COMPOSE_LOCAL_SECRETS, ConfigError, DEVELOPMENT_INTERNAL_TOKEN, isExposed, loadConfig } from './config.ts';

const production = (env: Record<string, string>) => () => loadConfig(BaseConfig, { NODE_ENV: 'production', ...env });
const OWN_TOKEN = 'a-secret-of-our-own-0123456789';

describe('isExposed', () => {
  it('is production, or an APP_URL off this machine', () => {
    expect(isExposed({ NODE_ENV: 'production', APP_URL: 'http://localhost:3000' })).toBe(true);
    expect(isExposed({ NODE_ENV: 'development', APP_URL: 'http://192.168.1.20:3000' })).toBe(true);
    expect(isExposed({ NODE_ENV: 'development', APP_URL: 'http://localhost:3000' })).toBe(false);
    expect(isExposed({ NODE_ENV: 'test', APP_URL: 'http://127.0.0.1:3170' })).toBe(false);
  });
});

describe('loadConfig', () => {
  it('names every bad setting', () => {
    const read = () => loadConfig(BaseConfig, { INTERNAL_TOKEN: 'short', LOG_LEVEL: 'loud' });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(/INTERNAL_TOKEN: INTERNAL_TOKEN must be at least 24 characters/);
    expect(read).toThrow(/LOG_LEVEL: /);
  });

  it('takes a variable set empty as not set: its default applies', () => {
    const WithPort = BaseConfig.extend({ PORT: z.coerce.number().int().default(3000) });
    expect(loadConfig(WithPort, { PORT: '' }).PORT).toBe(3000);
    expect(loadConfig(BaseConfig, { LOG_LEVEL: '', NATS_URL: '' })).toMatchObject({ LOG_LEVEL: 'info', NATS_URL: 'nats://127.0.0.1:4222' });
  });

  it('places the services where npm start does for a SERVICE_PORT_BASE, a <NAME>_URL set winning', () => {
    const config = loadConfig(BaseConfig, { SERVICE_PORT_BASE: '4500', STUDY_URL: 'http://study.internal:8080' });
    expect([config.IDENTITY_URL, config.STUDY_URL, config.RESEARCH_EXPORT_URL]).toEqual([
      'http://127.0.0.1:4501',
      'http://study.internal:8080',
      'http://127.0.0.1:4506',
    ]);
    expect(loadConfig(BaseConfig, {}).IDENTITY_URL).toBe('http://127.0.0.1:4001');
    expect(() => loadConfig(BaseConfig, { SERVICE_PORT_BASE: 'abc' })).toThrow(/SERVICE_PORT_BASE: a whole number/);
  });

  it('refuses a NATS_URL the client could not dial', () => {
    for (const bad of ['nats://127.0.0.1:42x22', 'http://127.0.0.1:4222', 'nats://', 'nats://a:4222, :x']) {
      expect(() => loadConfig(BaseConfig, { NATS_URL: bad }), bad).toThrow(/NATS_URL: one or more NATS servers/);
    }
    for (const good of [
      'nats://127.0.0.1:4222',
      '127.0.0.1:4222',
      'nats://a:4222,nats://b:4222',
      'tls://nats.example.org',
      'nats://user:pw@[::1]:4222',
    ]) {
      expect(loadConfig(BaseConfig, { NATS_URL: good }).NATS_URL, good).toBe(good);
    }
  });

  it('refuses the development token in production, wherever the app is', () => {
    expect(production({})).toThrow(ConfigError);
    expect(production({ INTERNAL_TOKEN: DEVELOPMENT_INTERNAL_TOKEN })).toThrow(/INTERNAL_TOKEN: set a secret of your own in production/);
    // and wherever others reach the app, whatever NODE_ENV says
    expect(() => loadConfig(BaseConfig, { APP_URL: 'https://sleep.example.org' })).toThrow(
      /INTERNAL_TOKEN: set a secret of your own for https:\/\/sleep\.example\.org, which others reach \(APP_URL\)/,
    );
    expect(loadConfig(BaseConfig, { APP_URL: 'https://sleep.example.org', INTERNAL_TOKEN: OWN_TOKEN }).NODE_ENV).toBe('development');
    expect(production({ INTERNAL_TOKEN: OWN_TOKEN })().INTERNAL_TOKEN).toBe(OWN_TOKEN);
    expect(loadConfig(BaseConfig, {}).INTERNAL_TOKEN).toBe(DEVELOPMENT_INTERNAL_TOKEN);
  });

  it("takes docker-compose.yml's public fallbacks for a trial on localhost only", () => {
    const composeDefaults = {
      INTERNAL_TOKEN: COMPOSE_LOCAL_SECRETS.INTERNAL_TOKEN,
      DATABASE_URL: `postgres://postgres:${COMPOSE_LOCAL_SECRETS.POSTGRES_PASSWORD}@postgres:5432`,
    };
    for (const APP_URL of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:3000', 'http://sleep.localhost']) {
      expect(production({ ...composeDefaults, APP_URL })().APP_URL).toBe(APP_URL);
    }
    expect(production({ ...composeDefaults, APP_URL: 'https://sleep.example.org' })).toThrow(
      /INTERNAL_TOKEN: docker-compose.yml's local default is public.*\n.*DATABASE_URL: docker-compose.yml's local POSTGRES_PASSWORD is public/,
    );
    const own = {
      INTERNAL_TOKEN: OWN_TOKEN,
      DATABASE_URL: 'postgres://postgres:own%20password@db:5432',
      APP_URL: 'https://sleep.example.org',
    };
    expect(production(own)().DATABASE_URL).toBe(own.DATABASE_URL);
    expect(production({ ...own, INTERNAL_TOKEN: COMPOSE_LOCAL_SECRETS.INTERNAL_TOKEN })).toThrow(/INTERNAL_TOKEN: docker-compose/);
    expect(production({ ...own, DATABASE_URL: composeDefaults.DATABASE_URL })).toThrow(/DATABASE_URL: docker-compose/);
    // nor without NODE_ENV=production, once others reach the app
    expect(() => loadConfig(BaseConfig, { ...composeDefaults, APP_URL: 'https://sleep.example.org' })).toThrow(
      /INTERNAL_TOKEN: docker-compose/,
    );
    // development and tests on the machine itself are not checked
    expect(loadConfig(BaseConfig, { ...composeDefaults, APP_URL: 'http://localhost:3000' }).NODE_ENV).toBe('development');
  });

  it('refuses plain http in production once others reach the app', () => {
    const own = { INTERNAL_TOKEN: OWN_TOKEN, DATABASE_URL: 'postgres://postgres:own@db:5432' };
    expect(production({ ...own, APP_URL: 'http://sleep.example.org' })).toThrow(
      /APP_URL: production is served over https \(Secure cookies, HSTS\); http:\/\/sleep\.example\.org is plain http/,
    );
    expect(production({ ...own, APP_URL: 'https://sleep.example.org' })().APP_URL).toBe('https://sleep.example.org');
    expect(production({ ...own, APP_URL: 'http://localhost:3000' })().APP_URL).toBe('http://localhost:3000');
  });
});
