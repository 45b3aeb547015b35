/**
 * Illustrations drawn for this site: a home with each kind of damage, an adjuster at work,
 * documents, a handshake. Inline SVG (no request), a few hundred bytes each, coloured by the
 * theme's custom properties through their classes (site.css, "Illustrations"), so an owner's
 * colours are theirs too. Decorative where the words beside them say the same: hidden from
 * assistive technology; a meaningful one is given a title.
 */
export type Scene =
  | 'fire'
  | 'water'
  | 'storm'
  | 'theft'
  | 'other'
  | 'adjuster'
  | 'documents'
  | 'handshake';

/** The house every damage scene starts from: walls, roof, door and two windows. */
const House = () => (
  <g>
    <path className="art-wall" d="M56 78h128v66H56z" />
    <path className="art-roof" d="M44 80 120 28l76 52z" />
    <path className="art-line" d="M106 144v-36h28v36" />
    <path className="art-glass" d="M68 92h26v22H68zM146 92h26v22h-26z" />
  </g>
);

const Ground = () => <path className="art-ground" d="M16 144h208" />;

const SCENES: Record<Scene, () => React.JSX.Element> = {
  fire: () => (
    <>
      <House />
      <path
        className="art-accent"
        d="M150 74c10-6 6-20 14-28 0 10 12 14 10 28-1 8-7 12-12 12s-14-4-12-12Z"
      />
      <path className="art-flame" d="M158 80c2-6 6-8 6-14 4 6 6 10 4 14-2 4-9 5-10 0Z" />
      <path className="art-smoke" d="M160 40c-6-6 2-12-4-18M172 36c-4-5 2-10-2-14" />
      <Ground />
    </>
  ),
  water: () => (
    <>
      <House />
      <path
        className="art-water"
        d="M16 128c12-6 20 6 32 0s20 6 32 0 20 6 32 0 20 6 32 0 20 6 32 0 20 6 32 0v16H16z"
      />
      <path className="art-accent" d="M90 46s-6 8-6 12a6 6 0 0 0 12 0c0-4-6-12-6-12Z" />
      <Ground />
    </>
  ),
  storm: () => (
    <>
      <House />
      <path
        className="art-cloud"
        d="M150 46h52a12 12 0 0 0 0-24 18 18 0 0 0-34-6 14 14 0 0 0-18 30Z"
      />
      <path className="art-accent" d="m178 48-8 16h10l-8 18 20-24h-10l6-10z" />
      <path className="art-rain" d="m156 54-6 12M196 56l-6 12M212 52l-6 12" />
      <path className="art-broken" d="m60 76 16-10 4 8" />
      <Ground />
    </>
  ),
  theft: () => (
    <>
      <House />
      <path className="art-broken" d="m74 92 8 10-6 6 10 6M152 92l10 8-8 8 14 6" />
      <path className="art-accent" d="M112 124h16v6h-16z" />
      <path className="art-line" d="M134 144l16-20" />
      <Ground />
    </>
  ),
  other: () => (
    <>
      <House />
      <path className="art-broken" d="m92 80-6 14 8 8-6 14 6 10" />
      <path className="art-tree" d="M208 144V82" />
      <path className="art-leaf" d="M208 58a18 18 0 1 1 0 36 18 18 0 0 1 0-36Z" />
      <path className="art-accent" d="M188 66 150 82" />
      <Ground />
    </>
  ),
  adjuster: () => (
    <>
      <House />
      <circle className="art-skin" cx="206" cy="70" r="10" />
      <path className="art-person" d="M190 144V98a16 16 0 0 1 32 0v46z" />
      <path className="art-paper" d="M180 96h18v24h-18z" />
      <path className="art-line" d="M184 104h10M184 110h10" />
      <Ground />
    </>
  ),
  documents: () => (
    <>
      <path className="art-paper art-back" d="M78 30h76v104H78z" />
      <path className="art-paper" d="M92 40h76v104H92z" />
      <path className="art-line" d="M104 60h52M104 74h52M104 88h36M104 102h44" />
      <circle className="art-accent" cx="160" cy="124" r="16" />
      <path className="art-tick" d="m152 124 6 6 10-12" />
      <Ground />
    </>
  ),
  handshake: () => (
    <>
      <path className="art-person" d="M20 84h64v40H20z" />
      <path className="art-accent-band" d="M220 84h-64v40h64z" />
      <path className="art-skin" d="M84 88h26c10 0 20 6 28 14l-6 10c-8-4-16-6-24-4l-8 4H84z" />
      <path
        className="art-skin art-shade"
        d="M156 88h-24c-12 0-22 8-30 16l4 6c8-4 16-4 22 0l10 8c4 3 10 0 8-5l10 3z"
      />
      <path className="art-line" d="M112 108l12 9M120 104l12 9M128 100l10 8" />
      <Ground />
    </>
  ),
};

/** One illustration, decorative unless given a title. */
export function Illustration({ scene, title }: { scene: Scene; title?: string }) {
  const Drawing = SCENES[scene];
  const box = { className: `art art-${scene}`, viewBox: '0 0 240 160', width: 240, height: 160 };
  return title ? (
    <svg {...box} role="img" focusable="false">
      <title>{title}</title>
      <Drawing />
    </svg>
  ) : (
    <svg {...box} aria-hidden="true" focusable="false">
      <Drawing />
    </svg>
  );
}
