"use client";
// Two-factor on the account page: set up (QR code and the secret as text, then a first
// code), the recovery codes shown once, new recovery codes, and turning it off (a current code).
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, buttonDanger, buttonSecondary, muted } from "@/components/ui/classes";
import { TextField } from "@/components/ui/field-message";
import { FormAlert } from "@/components/ui/form-alert";
import type { ActionResult } from "@/lib/dashboard/action-result";
import {
  beginTwoFactorAction,
  confirmTwoFactorAction,
  disableTwoFactorAction,
  regenerateRecoveryCodesAction,
} from "./actions";

type Setup = { secret: string; uri: string; qrDataUrl: string };

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <section
      aria-label="Recovery codes"
      className="rounded-lg border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-semibold">Your recovery codes</p>
      <p className="mt-1 text-sm">
        Each works once in place of a code from your app. Store them somewhere safe now: they are not shown again.
      </p>
      <ul className="mt-3 grid grid-cols-2 gap-1 font-mono text-sm" data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
    </section>
  );
}

/** A one-field code form around an action. */
function CodeForm<T>({
  id,
  label,
  submit,
  danger,
  run,
  onDone,
}: {
  id: string;
  label: string;
  submit: string;
  danger?: boolean;
  run: (code: string) => Promise<ActionResult<T>>;
  onDone: (data: T) => void;
}) {
  const [message, setMessage] = useState<string | null>(null);
  const [field, setField] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  return (
    <form
      className="max-w-md space-y-3"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        setPending(true);
        const result = await run(String(new FormData(event.currentTarget).get("code") ?? ""));
        setPending(false);
        if (!result.ok) {
          setMessage(result.message);
          setField(result.fields?.code);
          return;
        }
        setMessage(null);
        onDone(result.data);
      }}
    >
      <TextField id={id} name="code" label={label} autoComplete="one-time-code" message={field} />
      <FormAlert message={message} />
      <button type="submit" className={danger ? buttonDanger : button} disabled={pending}>
        {pending ? "Checking…" : submit}
      </button>
    </form>
  );
}

export function TwoFactorPanel({ enabled, recoveryCodesLeft }: { enabled: boolean; recoveryCodesLeft: number }) {
  const router = useRouter();
  const toast = useToast();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [signedOutOthers, setSignedOutOthers] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (codes) {
    return (
      <div className="space-y-3">
        <p data-testid="two-factor-state">Two-factor authentication is on.</p>
        {signedOutOthers && (
          <p className={muted} data-testid="other-sessions-ended">
            Your other sessions were signed out: other browsers and devices sign in again, with a code.
          </p>
        )}
        <RecoveryCodes codes={codes} />
        <button
          type="button"
          className={buttonSecondary}
          onClick={() => {
            setCodes(null);
            setSignedOutOthers(false);
            router.refresh();
          }}
        >
          I stored them
        </button>
      </div>
    );
  }

  if (enabled) {
    return (
      <div className="space-y-4">
        <p data-testid="two-factor-state">
          Two-factor authentication is on. {recoveryCodesLeft} of 10 recovery codes left.
        </p>
        <details>
          <summary className="cursor-pointer text-sm font-medium">New recovery codes</summary>
          <p className={`my-2 ${muted}`}>The old codes stop working.</p>
          <CodeForm
            id="regenerate-code"
            label="Current code from your app"
            submit="Make new recovery codes"
            run={(code) => regenerateRecoveryCodesAction({ code })}
            onDone={(data) => setCodes(data.recoveryCodes)}
          />
        </details>
        <details>
          <summary className="cursor-pointer text-sm font-medium">Turn off two-factor authentication</summary>
          <p className={`my-2 ${muted}`}>Signing in then needs only your password. You are emailed about it.</p>
          <CodeForm
            id="disable-code"
            label="Current code from your app (or a recovery code)"
            submit="Turn off two-factor"
            danger
            run={(code) => disableTwoFactorAction({ code })}
            onDone={() => {
              toast.success("Two-factor authentication turned off");
              router.refresh();
            }}
          />
        </details>
      </div>
    );
  }

  if (setup) {
    return (
      <div className="space-y-4">
        <p>Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy…).</p>
        {/* A data: URL made on the server by the qrcode library from our own otpauth URI. */}
        <img
          src={setup.qrDataUrl}
          width={192}
          height={192}
          alt="QR code for your authenticator app"
          className="bg-white p-2"
        />
        <p className={muted}>
          Cannot scan? Enter this key by hand:{" "}
          <code data-testid="totp-secret" className="break-all font-mono">
            {setup.secret}
          </code>
        </p>
        <CodeForm
          id="confirm-code"
          label="The 6-digit code your app shows"
          submit="Turn on two-factor"
          run={(code) => confirmTwoFactorAction({ code })}
          onDone={(data) => {
            toast.success("Two-factor authentication is on");
            setSetup(null);
            setSignedOutOthers(true);
            setCodes(data.recoveryCodes);
          }}
        />
      </div>
    );
  }

  return (
    <div className="space-y-3">
      <p data-testid="two-factor-state">Two-factor authentication is off.</p>
      <FormAlert message={error} />
      <button
        type="button"
        className={button}
        onClick={async () => {
          const result = await beginTwoFactorAction({});
          if (result.ok) setSetup(result.data);
          else setError(result.message);
        }}
      >
        Set up two-factor authentication
      </button>
    </div>
  );
}
