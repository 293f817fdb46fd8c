// A fake accessible application for bench/events.ts: on the real accessibility bus it sends AT-SPI event signals
// (org.a11y.atspi.Event.Object) at a given rate for a given time, answers the role and name of its objects, then on
// a line "marker" from stdin sends one name change on /marker and prints "marker <epoch ms>".
//   node dist/bench/_storm-app.js <signals per second> <seconds>
import dbus from 'dbus-next';
import { createInterface } from 'node:readline';

const { Message, MessageType, Variant } = dbus;
const rate = Number(process.argv[2] ?? 10000);
const seconds = Number(process.argv[3] ?? 10);
const PUSH_BUTTON = 43;

const session = dbus.sessionBus();
const a11y = await session.getProxyObject('org.a11y.Bus', '/org/a11y/bus');
const a11yBus = a11y.getInterface('org.a11y.Bus') as unknown as { GetAddress(): Promise<string> };
const address = await a11yBus.GetAddress();
session.disconnect();
const bus = dbus.sessionBus({ busAddress: address });

bus.addMethodHandler((message: InstanceType<typeof Message>) => {
  const reply = (signature: string, body: unknown[]) => {
    bus.send(Message.newMethodReturn(message, signature, body));
    return true;
  };
  if (message.interface === 'org.a11y.atspi.Accessible' && message.member === 'GetRole')
    return reply('u', [PUSH_BUTTON]);
  if (message.interface === 'org.freedesktop.DBus.Properties' && message.member === 'Get') {
    return reply('v', [new Variant('s', message.path === '/marker' ? 'storm-marker' : `storm ${message.path}`)]);
  }
  return false;
});

function signal(path: string, member: string, detail: string, detail1: number, data: unknown): void {
  bus.send(
    new Message({
      type: MessageType.SIGNAL,
      path,
      interface: 'org.a11y.atspi.Event.Object',
      member,
      signature: 'siiva{sv}',
      body: [detail, detail1, 1, data, {}],
    }),
  );
}

await new Promise((resolve) => setTimeout(resolve, 200));
process.stdout.write('ready\n');
const started = Date.now();
let sent = 0;
const TICK_MS = 10;
await new Promise<void>((resolve) => {
  const timer = setInterval(() => {
    const elapsed = Date.now() - started;
    if (elapsed >= seconds * 1000) {
      clearInterval(timer);
      resolve();
      return;
    }
    const due = Math.floor((elapsed / 1000) * rate) - sent;
    for (let i = 0; i < due; i++, sent++) {
      const path = `/org/a11y/atspi/accessible/storm/${sent % 200}`;
      if (sent % 2 === 0) signal(path, 'TextChanged', 'insert', sent, new Variant('s', 'x'));
      else signal(path, 'StateChanged', 'checked', sent % 4 === 1 ? 1 : 0, new Variant('i', 0));
    }
  }, TICK_MS);
});
process.stdout.write(`storm ${sent} ${Date.now() - started}\n`);
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === 'marker') {
    signal('/marker', 'PropertyChange', 'accessible-name', 0, new Variant('s', 'storm-marker'));
    process.stdout.write(`marker ${Date.now()}\n`);
  }
  if (line.trim() === 'quit') break;
}
bus.disconnect();
process.exit(0);
