import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';

/**
 * A member as a browser would be, against a gateway over real HTTP: her cookies (kept as
 * the gateway renews them), the app's Origin on every write. A request that reaches no
 * gateway (killed, restarting) answers status 0.
 */

export const PASSWORD = 'linen nights and cotton days';

export interface Answer {
  status: number;
  body: unknown;
}

export class Member {
  readonly cookies = new Map<string, string>();
  id = '';
  email = '';

  constructor(
    public gateway: string,
    readonly origin: string,
  ) {}

  cookieHeader(names?: string[]): string {
    return [...this.cookies]
      .filter(([name]) => !names || names.includes(name))
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  }

  /** Only the given cookies are sent when `only` is set (e.g. an access token alone). */
  async request(method: string, path: string, body?: unknown, only?: string[]): Promise<Answer> {
    const headers: Record<string, string> = { cookie: this.cookieHeader(only), origin: this.origin };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(new URL(path, this.gateway), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
    } catch {
      return { status: 0, body: null };
    }
    if (!only) {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        const name = pair!.slice(0, at);
        const value = pair!.slice(at + 1);
        if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
        else this.cookies.set(name, value);
      }
    }
    const text = await response.text().catch(() => '');
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: kept as text
    }
    return { status: response.status, body: parsed };
  }

  /** Another sign-in of the same member: a session of its own. */
  async login(): Promise<Member> {
    const session = new Member(this.gateway, this.origin);
    const answer = await session.request('POST', '/api/login', { email: this.email, password: PASSWORD });
    if (answer.status !== 200) throw new Error(`login: ${answer.status} ${JSON.stringify(answer.body)}`);
    session.id = this.id;
    session.email = this.email;
    return session;
  }
}

export function registration(firstName = 'Ada') {
  return {
    email: `${firstName.toLowerCase()}.${randomUUID()}@example.com`,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    firstName,
    lastName: 'Lind',
    dateOfBirth: '1968-05-04',
    timezone: 'Europe/Paris',
    hormonalStage: 'Menopause',
  };
}

/** Signs up through the gateway; null when it was not acknowledged (the caller counts the status). */
export async function register(gateway: string, origin: string, firstName?: string): Promise<{ member: Member | null; status: number }> {
  const member = new Member(gateway, origin);
  const body = registration(firstName);
  const answer = await member.request('POST', '/api/register', body);
  if (answer.status !== 201) return { member: null, status: answer.status };
  member.id = (answer.body as { user: { id: string } }).user.id;
  member.email = body.email;
  return { member, status: answer.status };
}

/** Signs up, retrying until acknowledged (setup, not load). */
export async function registerSurely(gateway: string, origin: string, firstName?: string): Promise<Member> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { member } = await register(gateway, origin, firstName);
    if (member) return member;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('could not register');
}

/**
 * An open thread screen: a WebSocket on /ws that joins one thread and notes when each new
 * message arrives; it reconnects (and joins again) whenever the socket closes, as the app does.
 */
export class ThreadListener {
  /** message id → when it arrived (first time). */
  readonly received = new Map<string, number>();
  private socket: WebSocket | null = null;
  private stopped = false;
  joined = false;

  constructor(
    private readonly member: Member,
    private readonly threadId: string,
    private readonly reconnectMs = 200,
  ) {}

  start(): void {
    if (this.stopped) return;
    const url = this.member.gateway.replace(/^http/, 'ws') + '/ws';
    const socket = new WebSocket(url, { headers: { cookie: this.member.cookieHeader(), origin: this.member.origin } });
    this.socket = socket;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'join_thread', threadId: this.threadId })));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; message?: { id: string } };
      if (message.type === 'joined') this.joined = true;
      if (message.type === 'new_message' && message.message && !this.received.has(message.message.id)) {
        this.received.set(message.message.id, Date.now());
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.joined = false;
      if (!this.stopped) setTimeout(() => this.start(), this.reconnectMs);
    });
  }

  stop(): void {
    this.stopped = true;
    this.socket?.terminate();
  }
}
