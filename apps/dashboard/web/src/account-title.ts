import { useEffect } from 'react';

const SUFFIX = ' · MMW';

/**
 * Puts the organization's name in the tab's title ("Keys · Acme · MMW") whatever the page sets:
 * pages set "Page · MMW", and this adds the name whenever the title changes while the account is open.
 */
export function useAccountTitle(accountName: string | undefined): void {
  useEffect(() => {
    if (accountName === undefined) return;
    const withName = () => {
      const title = document.title;
      const marker = ` · ${accountName}${SUFFIX}`;
      if (title.endsWith(marker) || !title.endsWith(SUFFIX)) return;
      document.title = title.slice(0, -SUFFIX.length) + marker;
    };
    withName();
    const element = document.querySelector('title');
    if (element === null) return;
    const observer = new MutationObserver(withName);
    observer.observe(element, { childList: true, characterData: true, subtree: true });
    return () => {
      observer.disconnect();
      if (document.title.endsWith(` · ${accountName}${SUFFIX}`)) {
        document.title = document.title.slice(0, -` · ${accountName}${SUFFIX}`.length) + SUFFIX;
      }
    };
  }, [accountName]);
}
