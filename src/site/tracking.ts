import type { Site } from './model.js';
import { checkedPhone } from './phone.js';

/**
 * The tracking numbers' rules as the browser script reads them from <html data-phones>: the main
 * number's ten digits (`m`) and as the page writes it (`p`), and each rule's conditions (`s` source, `d` medium, `c` campaign, `k`
 * click id), its call link (`t`) and the number as the page's language writes it (`n`). Without
 * JavaScript the page shows the main number; with it, the first rule the visit matches puts its
 * number in every number shown and every call link. Undefined when the site has none.
 */
export function phoneRules(site: Site): string | undefined {
  const rules = site.settings.tracking?.phones;
  if (!rules?.length) return undefined;
  return JSON.stringify({
    m: site.phone.national,
    p: site.format.phone(site.phone),
    r: rules.map((r) => {
      const phone = checkedPhone(r.number);
      return {
        ...(r.source ? { s: r.source.toLowerCase() } : {}),
        ...(r.medium ? { d: r.medium.toLowerCase() } : {}),
        ...(r.campaign ? { c: r.campaign.toLowerCase() } : {}),
        ...(r.clickId ? { k: r.clickId } : {}),
        t: site.links.tel(phone),
        n: site.format.phone(phone),
      };
    }),
  });
}
