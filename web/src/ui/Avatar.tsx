/** The user's avatar, or their initial on a disc when there is none. Decorative: the name is always written beside it. */
export function Avatar({ user, size = 32 }: { user: { avatar: string | null; username: string }; size?: number }) {
  if (user.avatar) return <img className="avatar" src={user.avatar} alt="" width={size} height={size} />;
  return (
    <span className="avatar avatar-initial" aria-hidden="true" style={{ width: size, height: size }}>
      {user.username.slice(0, 1).toUpperCase()}
    </span>
  );
}
