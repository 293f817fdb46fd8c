import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DbusClient, type SignalMessage } from '../dbus-client.js';
import { MessageType, Variant } from '../message.js';
import { marshalMessage } from '../writer.js';
import { type FakeBus, startFakeBus } from './fake-bus-server.js';
import { rejection } from '../../../e2e/support/rejection.js';

// The provider's D-Bus client against a bus played by the test (fake-bus-server.ts), for what a real bus does not
// do on request: refuse authentication, hang up in the middle of a message, stay silent, send broken bytes.

const call = (client: DbusClient, member: string) =>
  client.call({ destination: ':1.3', path: '/org/a11y/atspi/accessible/root', interface: 'org.x.Test', member });

async function withBus(options: { refuseAuth?: boolean }, use: (bus: FakeBus) => Promise<void>): Promise<void> {
  const bus = await startFakeBus(options);
  try {
    await use(bus);
  } finally {
    await bus.close();
  }
}

test('authenticates, says Hello, matches replies to calls, delivers signals, answers Ping', async () => {
  await withBus({}, async (bus) => {
    bus.onMessage = (message, peer) => {
      if (message.member === 'Echo') peer.reply(message, 'sa{sv}', [`${message.serial}`, {}]);
    };
    const client = await DbusClient.connect(bus.address, { callTimeoutMs: 500 });
    try {
      assert.equal(client.uniqueName, ':1.7');
      const signals: SignalMessage[] = [];
      client.onSignal((signal) => signals.push(signal));
      const replies = await Promise.all([call(client, 'Echo'), call(client, 'Echo'), call(client, 'Echo')]);
      const serials = bus.received.filter((m) => m.member === 'Echo').map((m) => String(m.serial));
      assert.deepEqual(
        replies.map((body) => body[0]),
        serials,
      );
      const peer = await new Promise<Parameters<FakeBus['onMessage']>[1]>((resolve) => {
        bus.onMessage = (message, p) => {
          if (message.member === 'Trigger') resolve(p);
        };
        void call(client, 'Trigger').catch(() => undefined);
      });
      peer.send({
        type: MessageType.SIGNAL,
        sender: ':1.3',
        path: '/org/a11y/atspi/accessible/5',
        interface: 'org.a11y.atspi.Event.Object',
        member: 'StateChanged',
        signature: 'siiv(so)',
        body: ['focused', 1, 0, new Variant('i', 0), [':1.3', '/a']],
      });
      // A peer's Ping is answered; its call of anything else gets an error rather than silence.
      peer.send({
        type: MessageType.METHOD_CALL,
        sender: ':1.3',
        destination: ':1.7',
        path: '/',
        interface: 'org.freedesktop.DBus.Peer',
        member: 'Ping',
      });
      peer.send({
        type: MessageType.METHOD_CALL,
        sender: ':1.3',
        destination: ':1.7',
        path: '/',
        interface: 'org.x',
        member: 'Other',
      });
      await waitFor(() => signals.length === 1 && bus.received.filter((m) => m.replySerial !== undefined).length === 2);
      assert.equal(signals[0]?.member, 'StateChanged');
      assert.equal(signals[0]?.sender, ':1.3');
      assert.deepEqual(signals[0]?.body.slice(0, 3), ['focused', 1, 0]);
      const answers = bus.received.filter((m) => m.replySerial !== undefined);
      assert.equal(answers[0]?.type, MessageType.METHOD_RETURN);
      assert.equal(answers[1]?.type, MessageType.ERROR);
      assert.equal(answers[1]?.errorName, 'org.freedesktop.DBus.Error.UnknownMethod');
    } finally {
      client.close();
    }
  });
});

async function waitFor(condition: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) assert.fail('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('a bus that refuses authentication is a clear error naming what it offers', async () => {
  await withBus({ refuseAuth: true }, async (bus) => {
    const error = await rejection(DbusClient.connect(bus.address, { callTimeoutMs: 500 }));
    assert.equal(error.code, 'provider-unavailable');
    assert.match(error.message, /refused EXTERNAL authentication for uid \d+ \(it offers: DBUS_COOKIE_SHA1\)/);
  });
});

test('an address without a unix socket, or a socket nobody listens on, is a clear error', async () => {
  const tcp = await rejection(DbusClient.connect('tcp:host=127.0.0.1,port=1'));
  assert.match(tcp.message, /only unix: is supported/);
  const nobody = await rejection(DbusClient.connect('unix:path=/nonexistent/platynui-bus'));
  assert.equal(nobody.code, 'provider-unavailable');
  assert.match(nobody.message, /cannot connect.*ENOENT/);
});

test('a peer hanging up in the middle of a message fails the calls in flight and reports the loss', async () => {
  await withBus({}, async (bus) => {
    bus.onMessage = (message, peer) => {
      const whole = marshalMessage({
        type: MessageType.METHOD_RETURN,
        serial: 5,
        replySerial: message.serial,
        signature: 's',
        body: ['x'.repeat(100)],
      });
      peer.raw(whole.subarray(0, 60));
      setTimeout(() => peer.end(), 20);
    };
    const client = await DbusClient.connect(bus.address, { callTimeoutMs: 2000 });
    let lost = '';
    client.onClose = (reason) => (lost = reason);
    const error = await rejection(call(client, 'Anything'));
    assert.equal(error.code, 'provider-unavailable');
    assert.match(error.message, /in the middle of a message \(60 bytes of it read\)/);
    assert.match(lost, /in the middle of a message/);
    assert.equal(client.isClosed, true);
    assert.equal((await rejection(call(client, 'Again'))).code, 'provider-unavailable');
  });
});

test('replies cut anywhere across chunks, a header cut too, are each read whole and matched to their call', async () => {
  await withBus({}, async (bus) => {
    const count = 60;
    const calls: Array<{ serial: number; text: string }> = [];
    bus.onMessage = (message, peer) => {
      // Texts of every size (one longer than a socket read) and the byte order of the other end either way.
      const text = `${message.serial}:${'é'.repeat(calls.length % 7 === 0 ? 40_000 : calls.length * 13)}`;
      calls.push({ serial: message.serial, text });
      if (calls.length < count) return;
      const wire = Buffer.concat(
        calls.map((c, i) =>
          marshalMessage({
            type: MessageType.METHOD_RETURN,
            serial: 200 + i,
            replySerial: c.serial,
            signature: 'su',
            body: [c.text, i],
            bigEndian: i % 3 === 0,
          }),
        ),
      );
      void (async () => {
        // Pieces of 1 to 15 bytes (inside a fixed header), of a few hundred, and of many thousand.
        let piece = 0;
        for (let at = 0; at < wire.length; piece++) {
          const size = [1 + (piece % 15), 100 + ((piece * 37) % 900), 20_000 + piece][piece % 3] as number;
          peer.raw(wire.subarray(at, at + size));
          at += size;
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      })();
    };
    const client = await DbusClient.connect(bus.address, { callTimeoutMs: 10_000 });
    try {
      const replies = await Promise.all(Array.from({ length: count }, () => call(client, 'Piecewise')));
      const bySerial = new Map(calls.map((c, i) => [c.serial, [c.text, i]]));
      const sent = bus.received.filter((m) => m.member === 'Piecewise').map((m) => bySerial.get(m.serial));
      assert.deepEqual(replies, sent);
    } finally {
      client.close();
    }
  });
});

test('byte arrays of a reply keep their bytes after later reads', async () => {
  await withBus({}, async (bus) => {
    bus.onMessage = (message, peer) => {
      const bytes = Buffer.alloc(3000, message.serial % 251);
      setTimeout(() => peer.reply(message, 'ay', [bytes]), 2);
    };
    const client = await DbusClient.connect(bus.address, { callTimeoutMs: 2000 });
    try {
      const first = (await call(client, 'Bytes'))[0] as Buffer;
      const copy = Buffer.from(first);
      // Later replies are read into the connection's read buffer again.
      for (let i = 0; i < 5; i++) await call(client, 'Bytes');
      assert.ok(first.equals(copy));
    } finally {
      client.close();
    }
  });
});

test('a call nobody answers times out as not responding; the destination then fails fast', async () => {
  await withBus({}, async (bus) => {
    const client = await DbusClient.connect(bus.address, { callTimeoutMs: 150 });
    client.isStopped = () => true;
    try {
      const started = Date.now();
      const error = await rejection(call(client, 'Silence'));
      assert.equal(error.code, 'not-responding');
      assert.match(
        error.message,
        /application :1\.3 is not responding \(org\.x\.Test\.Silence got no answer within 150 ms\)/,
      );
      assert.ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
      assert.equal(client.isHung(':1.3'), true);
      const fast = await rejection(call(client, 'Next'));
      assert.match(fast.message, /timed out recently/);
      assert.equal(bus.received.filter((m) => m.member === 'Next').length, 0);
    } finally {
      client.close();
    }
  });
});

test('a malformed reply fails its call with what was wrong; the connection reads on', async () => {
  await withBus({}, async (bus) => {
    bus.onMessage = (message, peer) => {
      const reply = marshalMessage({
        type: MessageType.METHOD_RETURN,
        serial: 5,
        replySerial: message.serial,
        signature: 's',
        body: ['abc'],
      });
      if (message.member === 'Broken') reply[reply.length - 1] = 0x41; // the string's NUL
      peer.raw(reply);
    };
    const client = await DbusClient.connect(bus.address, { callTimeoutMs: 1000 });
    try {
      const error = await rejection(call(client, 'Broken'));
      assert.equal(error.code, 'provider-unavailable');
      assert.match(
        error.message,
        /org\.x\.Test\.Broken: :1\.3 sent a malformed reply \(malformed body of signature "s": string is not NUL-terminated\)/,
      );
      assert.deepEqual(await call(client, 'Fine'), ['abc']);
    } finally {
      client.close();
    }
  });
});

test('bytes that are not a D-Bus message end the connection with a clear reason', async () => {
  await withBus({}, async (bus) => {
    bus.onMessage = (_message, peer) => peer.raw(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const client = await DbusClient.connect(bus.address, { callTimeoutMs: 1000 });
    const error = await rejection(call(client, 'Anything'));
    assert.equal(error.code, 'provider-unavailable');
    assert.match(error.message, /not a D-Bus message \(byte order mark 0x48\)/);
  });
});

test('calls to an application with its own socket go there; the bus keeps the rest; its loss fails only its calls', async () => {
  await withBus({}, async (bus) => {
    await withBus({}, async (app) => {
      bus.onMessage = (message, peer) => peer.reply(message, 's', ['bus']);
      let hangUp: (() => void) | undefined;
      app.onMessage = (message, peer) => {
        if (message.member === 'Hold') hangUp = () => peer.end();
        else {
          // An application sends its events to each peer too; the client takes them from the bus alone.
          peer.send({ type: MessageType.SIGNAL, path: '/', interface: 'org.x.Test', member: 'Event' });
          peer.reply(message, 's', ['direct']);
        }
      };
      const client = await DbusClient.connect(bus.address, { callTimeoutMs: 2000 });
      try {
        const signals: SignalMessage[] = [];
        client.onSignal((signal) => signals.push(signal));
        await client.connectPeer(':1.3', app.address);
        assert.equal(client.hasPeer(':1.3'), true);
        const other = (member: string) =>
          client.call({ destination: ':1.4', path: '/', interface: 'org.x.Test', member });
        assert.deepEqual(await Promise.all([call(client, 'A'), other('B'), call(client, 'C')]), [
          ['direct'],
          ['bus'],
          ['direct'],
        ]);
        assert.deepEqual(
          app.received.map((m) => m.member),
          ['A', 'C'],
        );
        assert.deepEqual(
          bus.received.map((m) => m.member),
          ['B'],
        );
        assert.equal(client.callCount, 3);
        assert.equal(client.peerCallCount, 2);
        const held = rejection(call(client, 'Hold'));
        while (!hangUp) await new Promise((resolve) => setTimeout(resolve, 5));
        hangUp();
        const error = await held;
        assert.equal(error.code, 'stale-node');
        assert.match(error.message, /org\.x\.Test\.Hold: the application closed its connection/);
        assert.equal(client.hasPeer(':1.3'), false);
        assert.equal(client.isClosed, false);
        assert.deepEqual(await call(client, 'D'), ['bus']);
        assert.deepEqual(signals, []);
      } finally {
        client.close();
      }
    });
  });
});

test('an application socket nobody listens on is a clear error; calls keep going through the bus', async () => {
  await withBus({}, async (bus) => {
    bus.onMessage = (message, peer) => peer.reply(message, 's', ['bus']);
    const client = await DbusClient.connect(bus.address, { callTimeoutMs: 500 });
    try {
      const error = await rejection(client.connectPeer(':1.3', 'unix:path=/nonexistent/at-spi2-socket'));
      assert.equal(error.code, 'provider-unavailable');
      assert.match(error.message, /cannot connect to D-Bus at unix:path=\/nonexistent\/at-spi2-socket/);
      assert.equal(client.hasPeer(':1.3'), false);
      assert.deepEqual(await call(client, 'A'), ['bus']);
    } finally {
      client.close();
    }
  });
});
