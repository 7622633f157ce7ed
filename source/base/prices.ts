/**
 * Prices and costs. A price is USD per 1M tokens for one model of one channel: input, output and,
 * optionally, cached input (cache reads). The IR counts cached tokens inside `inputTokens`, so the
 * cached part is billed at the cached price and only the rest at the input price; cache writes are
 * billed as plain input. Without a cached price, cached tokens are billed at the input price.
 */
import {UserError} from './errors.js';
import type {IRUsage} from './ir.js';
import type {ChannelModel, ChannelRecord, ModelPrice} from './records.js';

/** One `--price` flag: set a model's price, or clear it (`price: null`). */
export type PriceSpec = {readonly model: string; readonly price: ModelPrice | null};

const amount = /^(\d+(\.\d*)?|\.\d+)$/;

/** `gpt-4o=2.5/10/1.25` sets input/output/cached; `gpt-4o=` clears the model's price. */
export function parsePriceSpec(text: string): PriceSpec {
	const match = /^([^=]+)=(.*)$/.exec(text.trim());
	const model = match?.[1]?.trim();
	if (!match || !model) throw new UserError(`Invalid price "${text}": use MODEL=IN/OUT or MODEL=IN/OUT/CACHED in USD per 1M tokens, e.g. --price gpt-4o=2.5/10/1.25 (MODEL= clears it).`);
	const value = match[2]!.trim();
	if (value === '' || value === 'none') return {model, price: null};
	const parts = value.split('/').map(part => part.trim());
	if (parts.length < 2 || parts.length > 3 || !parts.every(part => amount.test(part))) {
		throw new UserError(`Invalid price "${text}": give two or three non-negative numbers, IN/OUT[/CACHED] in USD per 1M tokens, e.g. ${model}=2.5/10/1.25.`);
	}
	const [input, output, cached] = parts.map(Number) as [number, number, number | undefined];
	return {model, price: cached === undefined ? {input, output} : {input, output, cached}};
}

export function parsePriceSpecs(texts: string | readonly string[] | undefined): PriceSpec[] {
	if (texts === undefined) return [];
	return (typeof texts === 'string' ? [texts] : texts).map(parsePriceSpec);
}

const serves = (models: readonly ChannelModel[], model: string) => models.some(item => item.name === model || item.upstream === model);

/**
 * The channel's prices after applying `specs` in order. Setting a price for a model the channel does
 * not serve is refused; clearing one is always allowed (so prices of removed models can be cleared).
 */
export function applyPrices(current: ChannelRecord['prices'], models: readonly ChannelModel[], specs: readonly PriceSpec[]): ChannelRecord['prices'] {
	const prices: Record<string, ModelPrice> = {...current};
	for (const spec of specs) {
		if (spec.price === null) {
			delete prices[spec.model];
			continue;
		}
		if (!serves(models, spec.model)) {
			const names = models.map(model => model.name).join(', ');
			throw new UserError(`The channel does not serve "${spec.model}" (its models: ${names}): price one of those, or add the model with --models.`);
		}
		prices[spec.model] = spec.price;
	}
	return Object.keys(prices).length > 0 ? prices : undefined;
}

export function formatPrice(price: ModelPrice): string {
	return [price.input, price.output, ...(price.cached === undefined ? [] : [price.cached])].join('/');
}

/** `gpt-4o=2.5/10/1.25, gpt-4o-mini=0.15/0.6` or `-`. */
export function formatPrices(prices: ChannelRecord['prices']): string {
	const entries = Object.entries(prices ?? {});
	return entries.length === 0 ? '-' : entries.map(([model, price]) => `${model}=${formatPrice(price)}`).join(', ');
}

/** The price of a request's model on its channel: by the client-facing name first, then the upstream name. */
export function priceOf(channel: Pick<ChannelRecord, 'prices'> | undefined, model: string | null, upstreamModel: string | null): ModelPrice | undefined {
	const prices = channel?.prices;
	if (!prices) return undefined;
	return (model ? prices[model] : undefined) ?? (upstreamModel ? prices[upstreamModel] : undefined);
}

export type Cost = {readonly costUsd: number; readonly unpriced: boolean};

/** Tokens × price. No tokens costs nothing; tokens without a price cost 0 and are marked unpriced. */
export function costOf(usage: IRUsage | null, price: ModelPrice | undefined): Cost {
	if (!usage || usage.inputTokens + usage.outputTokens === 0) return {costUsd: 0, unpriced: false};
	if (!price) return {costUsd: 0, unpriced: true};
	const cached = Math.min(usage.cachedTokens ?? 0, usage.inputTokens);
	const micro = (usage.inputTokens - cached) * price.input + cached * (price.cached ?? price.input) + usage.outputTokens * price.output;
	return {costUsd: micro / 1_000_000, unpriced: false};
}
