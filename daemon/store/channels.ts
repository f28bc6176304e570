import { join } from 'node:path';
import type { ChannelRecord } from '../events/channels/channel-secrets.js';
import { Doc } from './doc.js';
import { StoreConflict, type ChannelStore } from './types.js';

export interface ChannelsData {
  channels: ChannelRecord[];
}

const channelsDefaults = (): ChannelsData => ({ channels: [] });

/** A Company's webhook channels, in `<company data dir>/channels.json` (secrets sealed). */
export async function openFileChannelStore(companyDir: string): Promise<ChannelStore> {
  return createChannelStore(await Doc.file(join(companyDir, 'channels.json'), channelsDefaults()));
}

export async function createMemoryChannelStore(): Promise<ChannelStore> {
  return createChannelStore(await Doc.memory(channelsDefaults()));
}

export function createChannelStore(doc: Doc<ChannelsData>): ChannelStore {
  const copy = (c: ChannelRecord) => ({ ...c });
  return {
    get: (name) => {
      const c = doc.data.channels.find((x) => x.name === name);
      return c ? copy(c) : undefined;
    },
    list: () => doc.data.channels.map(copy),
    create: (record) =>
      doc.update((data) => {
        // Checked inside the update: two concurrent creates of one name cannot both succeed.
        if (data.channels.some((c) => c.name === record.name)) throw new StoreConflict('channel_exists', `a channel named '${record.name}' already exists`);
        data.channels.push(copy(record));
      }),
    replace: (record) =>
      doc.update((data) => {
        const i = data.channels.findIndex((c) => c.name === record.name);
        if (i < 0) return false;
        data.channels[i] = copy(record);
        return true;
      }),
    delete: (name) =>
      doc.update((data) => {
        const before = data.channels.length;
        data.channels = data.channels.filter((c) => c.name !== name);
        return data.channels.length < before;
      }),
  };
}
