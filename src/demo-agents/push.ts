/**
 * Push notifications for the SDK demo agents: the SDK's own InMemoryPushNotificationStore and
 * DefaultPushNotificationSender, with one guard of ours: the sender only sees configs whose webhook is on this
 * machine (loopback), so a demo agent never POSTs a task to the internet (the push-config check's fixed
 * https://example.com URL, or any address typed into the console). The request handler keeps the whole store, so
 * set / get / list / delete answer as the SDK does.
 */
const LOOPBACK = /^https?:\/\/(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])(:\d+)?(\/|$)/i;

const urlOf = (c: unknown): string => {
  if (typeof c !== 'object' || c === null) return '';
  const o = c as { url?: unknown; config?: { url?: unknown } };
  return typeof o.url === 'string' ? o.url : typeof o.config?.url === 'string' ? o.config.url : '';
};

/** Whether the demo agents deliver to `url` (loopback http(s) only). */
export const isLoopbackWebhook = (url: string): boolean => LOOPBACK.test(url);

/** The store as the sender sees it: `load` / `loadWithMetadata` answer only the loopback configs. */
export function loopbackOnly<T extends object>(store: T): T {
  return new Proxy(store, {
    get(target, prop) {
      const v: unknown = Reflect.get(target, prop, target);
      if (typeof v !== 'function') return v;
      const fn = v as (...args: unknown[]) => unknown;
      if (prop !== 'load' && prop !== 'loadWithMetadata') return fn.bind(target);
      return async (...args: unknown[]) => {
        const r = await fn.apply(target, args);
        return Array.isArray(r) ? r.filter((c) => isLoopbackWebhook(urlOf(c))) : r;
      };
    },
  });
}
