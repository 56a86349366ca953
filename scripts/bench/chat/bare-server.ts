import { createServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';

/**
 * The baseline the chat goals compare against: a bare socket.io server, not our code. One room per
 * session; `join` answers with the room's newest messages from memory, `send` relays a message to
 * the room and acknowledges it. Nothing is stored, checked or logged. With REDIS_URL, instances
 * share rooms through the same Redis streams adapter realtime uses. Env: PORT, REDIS_URL, PREFIX.
 */

interface Relayed {
  message_id: string;
  seq: string;
  message: string;
  time: string;
  name: string;
}

const PAGE = 100;
const port = Number(process.env.PORT);
const prefix = process.env.PREFIX ?? 'bare';
const httpServer = createServer();
const io = new Server(httpServer, {
  path: '/socket.io/',
  transports: ['websocket'],
  adapter: process.env.REDIS_URL
    ? createAdapter(new Redis(process.env.REDIS_URL), {
        streamName: `${prefix}:stream`,
        channelPrefix: prefix,
        onlyPlaintext: true,
      })
    : undefined,
});
const history = new Map<string, Relayed[]>();
let counter = 0;

io.on('connection', (socket) => {
  socket.on('join', ({ room }: { room: string }, ack: (answer: unknown) => void) => {
    void socket.join(room);
    ack({ status: 'SUCCESS', res: (history.get(room) ?? []).slice(-PAGE) });
  });
  socket.on('send', ({ room, text }: { room: string; text: string }, ack: (answer: unknown) => void) => {
    counter += 1;
    const message: Relayed = {
      message_id: `${port}-${counter}`,
      // Its place in the room as the clients' list reads it (each server counts its own).
      seq: String(counter),
      message: text,
      time: new Date().toISOString(),
      name: 'bare',
    };
    const kept = history.get(room) ?? [];
    kept.push(message);
    if (kept.length > PAGE) kept.shift();
    history.set(room, kept);
    io.to(room).emit('messageAdded', { sessionId: room, message });
    ack({ status: 'SUCCESS', res: message });
  });
});

httpServer.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => {
  void io.close();
  process.exit(0);
});
