/**
 * Which uid and gid a check runs as (docs/security.md, "Who a check runs
 * as"). Pure: the gate's ids (and the host's `SUDO_UID`) in, the check's out.
 *
 * - The gate is not root (GitHub-hosted runners: the host starts through
 *   `sudo -n`): the gate's own uid. Its files are the check's; the view hides
 *   the rest.
 * - The gate is root (containers, self-hosted runners): a dedicated
 *   unprivileged uid, `CHECK_UID`, never root. The working tree (its git
 *   metadata, a proof's writable directories) is shown through idmapped
 *   mounts on which its owner appears as that uid, so the check reads and
 *   writes it as its own, and a 0600 root file anywhere else is not its own.
 */

/**
 * The dedicated check user: 65532 is distroless's `nonroot`, allocated by no
 * distribution's base system, so it owns nothing in the system directories
 * the view shows. Not in `/etc/passwd`: `id -u` answers, `whoami` does not.
 */
export const CHECK_UID = 65532;
export const CHECK_GID = 65532;

export interface CheckUser {
  uid: number;
  gid: number;
  /** Show the tree through idmapped mounts, its owner as `uid`/`gid` (the dedicated user only). */
  idmap: boolean;
}

/** The gate's side: the user it asks the host for. `asked`: tests' explicit user, as the gate's own. */
export function checkUser(
  gate: { uid: number; gid: number },
  asked?: { uid: number; gid: number },
): CheckUser {
  if (asked !== undefined) return { ...asked, idmap: false };
  if (gate.uid === 0) return { uid: CHECK_UID, gid: CHECK_GID, idmap: true };
  return { ...gate, idmap: false };
}

/**
 * The host's side, which does not take the gate's word for uid 0: started
 * through `sudo`, it never hands a check root. The gate's own uid
 * (`SUDO_UID`) is used instead; a root gate that went through sudo gets the
 * dedicated user.
 */
export function hostCheckUser(asked: CheckUser, env: NodeJS.ProcessEnv): CheckUser {
  if (asked.uid !== 0 || env.SUDO_UID === undefined) return asked;
  const uid = decimal(env.SUDO_UID);
  const gid = decimal(env.SUDO_GID);
  if (uid === undefined || uid === 0 || gid === undefined)
    return { uid: CHECK_UID, gid: CHECK_GID, idmap: true };
  return { uid, gid, idmap: false };
}

/**
 * Where the tree cannot be idmapped (no C compiler, a file system or kernel
 * without idmapped mounts): the tree's owner when that is not root (checks
 * read and write it as themselves); else root without capabilities, as
 * before, which the report says.
 */
export function fallbackCheckUser(treeOwner: { uid: number; gid: number }): CheckUser {
  return { ...treeOwner, idmap: false };
}

function decimal(s: string | undefined): number | undefined {
  return s !== undefined && /^\d{1,10}$/.test(s) ? Number(s) : undefined;
}
