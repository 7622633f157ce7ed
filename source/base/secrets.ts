/** How secrets may appear anywhere a person or a client can see them. */

/** The real key as it may be shown anywhere: its first 3 and last 4 characters. */
export function maskSecret(secret: string | null): string {
	if (!secret) return '(none)';
	if (secret.length < 12) return '…' + secret.slice(-2);
	return `${secret.slice(0, 3)}…${secret.slice(-4)}`;
}

