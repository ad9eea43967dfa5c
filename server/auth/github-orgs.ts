/**
 * A GitHub user's organizations and teams, read when the login asks for `read:org`: who may log in
 * (`allowed_organizations`, `allowed_teams`), and the metadata Flipt v1.53 and later store about it.
 */
export interface GithubMembership {
  orgs: Set<string>;
  /** Team slugs by organization, in the order GitHub lists them. */
  teamsByOrg: Map<string, string[]>;
}

export interface GithubRestrictions {
  allowedOrganizations: string[];
  allowedTeams: Record<string, string[]>;
}

/**
 * A member of an allowed organization is let in; once `allowed_teams` names any team, only a member of a
 * team it names for that organization, as Flipt decides (an organization it names no teams for admits
 * no one then).
 */
export function admitted(member: GithubMembership, { allowedOrganizations, allowedTeams }: GithubRestrictions) {
  if (allowedOrganizations.length === 0) return true;
  const teamsNamed = Object.keys(allowedTeams).length > 0;
  return allowedOrganizations.some(
    (org) =>
      member.orgs.has(org) &&
      (!teamsNamed || (allowedTeams[org] ?? []).some((team) => member.teamsByOrg.get(org)?.includes(team))),
  );
}

/**
 * `io.flipt.auth.github.organizations` (a JSON list: the allowed organizations the user is in, or all of
 * theirs when none are configured) and `io.flipt.auth.github.teams` (a JSON object of organization to
 * team slugs: those `allowed_teams` names, else every team in the allowed organizations, else all).
 */
export function membershipMetadata(
  member: GithubMembership,
  { allowedOrganizations, allowedTeams }: GithubRestrictions,
): { organizations: string; teams: string } {
  const organizations = allowedOrganizations.length
    ? allowedOrganizations.filter((org) => member.orgs.has(org))
    : [...member.orgs];
  const teams: Record<string, string[]> = {};
  const add = (org: string, only?: string[]) => {
    const mine = member.teamsByOrg.get(org);
    if (!mine) return;
    const listed = only?.length ? only.filter((team) => mine.includes(team)) : mine;
    if (listed.length > 0) teams[org] = listed;
  };
  if (Object.keys(allowedTeams).length > 0) for (const [org, only] of Object.entries(allowedTeams)) add(org, only);
  else if (allowedOrganizations.length > 0) for (const org of allowedOrganizations) add(org);
  else for (const org of member.teamsByOrg.keys()) add(org);
  // Go writes a map's keys sorted.
  const sorted = Object.fromEntries(Object.entries(teams).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { organizations: JSON.stringify(organizations), teams: JSON.stringify(sorted) };
}
