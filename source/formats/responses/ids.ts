/** Responses ids: `resp_`; `msg_`, `rs_`, `fc_`, `ctc_`, `lsh_` for items (and `fco_`, `ctco_`, `lsho_`, `item_` for kept input items); `call_` for call ids. */
import {randomHex} from '../../base/random-ids.js';

const hex = (bytes: number): string => randomHex(bytes * 2);

export type ItemKind = 'msg' | 'rs' | 'fc' | 'ctc' | 'lsh' | 'fco' | 'ctco' | 'lsho' | 'item';

export function newItemId(kind: ItemKind): string {
	return `${kind}_${hex(24)}`;
}

/** The response id: an upstream Responses id is kept; any other id (another format's) gets a fresh `resp_` id. */
export function toResponseId(id: string): string {
	return id.startsWith('resp_') ? id : `resp_${hex(24)}`;
}

export function newCallId(): string {
	return `call_${randomHex(24)}`;
}
