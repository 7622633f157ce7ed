/**
 * The channels namespace: one provider connection each, as stored (real key included: only the
 * gateway core and the admin services read it; everything shown to a user is masked).
 */
import {channelRecordSchema, type ChannelRecord} from '../base/records.js';
import type {Store} from './index.js';
import {compareIso} from '../base/iso-time.js';

/** The real key is sealed at rest (store/sealing.ts). */
export const channels = (store: Store) => store.collection('channels', channelRecordSchema, 'channel', ['apiKey'], id => `gateway-tui channels remove ${id}`);

export async function listChannels(store: Store): Promise<ChannelRecord[]> {
	return (await channels(store).list()).sort((a, b) => b.priority - a.priority || compareIso(a.createdAt, b.createdAt));
}
