/** The community's limits' words (service-kit's perUserLimit counts them per member). */
export const threadCreateLimitMessage = (max: number) => `You can start up to ${max} threads an hour. Please try again later.`;
export const messagePostLimitMessage = (max: number) => `You can send up to ${max} messages a minute. Please wait a moment and try again.`;
