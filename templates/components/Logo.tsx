/** The brand, linking to the home page of the page's language. */
export function Logo({ siteName, home }: { siteName: string; home: string }) {
  return (
    <a className="logo" href={home}>
      <svg aria-hidden="true" viewBox="0 0 32 32" width="32" height="32" focusable="false">
        <path d="M16 2 4 7v8c0 7.5 5.1 13.4 12 15 6.9-1.6 12-7.5 12-15V7L16 2Z" fill="#0b3b60" />
        <path
          d="m10.5 16.2 3.8 3.8 7.4-8"
          fill="none"
          stroke="#f2b705"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span>{siteName}</span>
    </a>
  );
}
