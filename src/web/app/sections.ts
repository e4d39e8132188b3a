// The server view's sections, in navigation order: the id (also the path `/admin/<id>`) and the title.
// Shared by the server (which renders the shell) and the page.

export const VIEW_SECTIONS_TITLES = [
  ['overview', 'Overview'],
  ['pending', 'Pending writes'],
  ['consent', 'Consent requests'],
  ['clients', 'Clients & sessions'],
  ['changes', 'Live changes'],
  ['ontology', 'Ontology'],
  ['windows', 'Windows'],
] as const;

export type SectionId = (typeof VIEW_SECTIONS_TITLES)[number][0];
