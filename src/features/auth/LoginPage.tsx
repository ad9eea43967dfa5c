/** Placeholder: sign-in arrives with the authentication issue. */
export default function LoginPage() {
  return (
    <main className="login">
      <h1>Login</h1>
      <p className="muted">Sign-in is not available yet.</p>
    </main>
  );
}
