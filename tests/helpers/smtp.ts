import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The raw message (headers and body) as the server received it. */
  raw: string;
  user: string | null;
}

export interface TestSmtpServer {
  /** `smtp://user:pass@127.0.0.1:<port>` */
  url: string;
  received: ReceivedMail[];
  /** Resolves with the first message (already received or still to come) that `match` accepts. */
  next(match?: (m: ReceivedMail) => boolean): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on a free loopback port, requiring the given
 * login: the daemon's mail goes through nodemailer, the network and the SMTP dialogue, not a mock.
 * STARTTLS is off (a self-signed certificate would only test certificate handling).
 */
export async function startSmtpServer(login = { user: 'svc', pass: 's3cret' }): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters: Array<{ match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === login.user && auth.password === login.pass) return callback(null, { user: auth.username });
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (c: string) => (raw += c));
      stream.on('end', () => {
        const mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          user: typeof session.user === 'string' ? session.user : null,
        };
        received.push(mail);
        for (const w of waiters.filter((w) => w.match(mail))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(mail);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${login.user}:${login.pass}@127.0.0.1:${port}`,
    received,
    next(match = () => true) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
