import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { useTRPC } from '../trpc.ts';
import { ErrorText, Field } from './ui.tsx';

function QrImage({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    void QRCode.toDataURL(uri, { margin: 1, width: 200 }).then((url) => {
      if (live) setSrc(url);
    });
    return () => {
      live = false;
    };
  }, [uri]);
  return src ? <img src={src} width={200} height={200} alt="QR code for your authenticator app" /> : null;
}

/** Enrol (secret and QR shown once, confirmed by a code; recovery codes shown once) or turn off. */
export function TwoFactorSettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.twoFactor.status.queryOptions());
  const [code, setCode] = useState('');
  const refresh = async () => {
    setCode('');
    await queryClient.invalidateQueries();
  };
  const start = useMutation(trpc.twoFactor.startEnrolment.mutationOptions());
  const confirm = useMutation(trpc.twoFactor.confirmEnrolment.mutationOptions({ onSuccess: refresh }));
  const disable = useMutation(trpc.twoFactor.disable.mutationOptions({ onSuccess: refresh }));
  const [saved, setSaved] = useState(false);

  if (confirm.data && !saved) {
    return (
      <section className="panel stack">
        <h2 style={{ marginTop: 0 }}>Recovery codes</h2>
        <p>Two-factor sign-in is on. Keep these codes somewhere safe: each signs you in once without your authenticator. They are not shown again.</p>
        <pre data-testid="recovery-codes">{confirm.data.recoveryCodes.join('\n')}</pre>
        <div>
          <button type="button" className="primary" onClick={() => setSaved(true)}>
            I have saved them
          </button>
        </div>
      </section>
    );
  }
  const enabled = status.data?.enabled === true;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (enabled) disable.mutate({ code });
    else confirm.mutate({ code });
  };
  return (
    <form className="panel stack" onSubmit={submit}>
      <h2 style={{ marginTop: 0 }}>Two-factor sign-in</h2>
      {enabled ? (
        <>
          <p className="muted">
            On. After your password, MMW asks for a code from your authenticator app. {status.data?.recoveryCodesLeft ?? 0} recovery code(s)
            left.
          </p>
          <div className="row">
            <Field label="Code to turn it off" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
            <button className="danger" type="submit" disabled={disable.isPending}>
              Turn off two-factor sign-in
            </button>
          </div>
          <ErrorText error={disable.error} />
        </>
      ) : start.data ? (
        <>
          <p>Scan the QR code with your authenticator app, or enter the key by hand, then type the code it shows.</p>
          <QrImage uri={start.data.uri} />
          <p>
            Key: <code data-testid="totp-secret">{start.data.secret}</code>
          </p>
          <div className="row">
            <Field label="Authenticator code" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
            <button className="primary" type="submit" disabled={confirm.isPending}>
              Confirm
            </button>
          </div>
          <ErrorText error={confirm.error} />
        </>
      ) : (
        <>
          <p className="muted">Off. Add a code from an authenticator app to your sign-in.</p>
          <div>
            <button type="button" onClick={() => start.mutate({})} disabled={start.isPending || status.isPending}>
              Set up two-factor sign-in
            </button>
          </div>
          <ErrorText error={start.error} />
        </>
      )}
    </form>
  );
}
