/** Where the provider posts cash-in status callbacks, under the engine's public URL (each charge's projectWebhook). */
export const CASH_IN_CALLBACK_PATH = '/callbacks/cash-in';
