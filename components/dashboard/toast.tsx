"use client";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";

type Tone = "success" | "error";
type Toast = { id: number; tone: Tone; message: string };
type Api = { success: (message: string) => void; error: (message: string) => void };

const ToastContext = createContext<Api>({ success: () => {}, error: () => {} });

export function useToast(): Api {
  return useContext(ToastContext);
}

let seq = 0;

/** Toasts live in a polite live region (errors assertive) and leave after 5 s or on dismiss. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const push = useCallback(
    (tone: Tone, message: string) => {
      seq += 1;
      const id = seq;
      setToasts((all) => [...all.slice(-3), { id, tone, message }]);
      setTimeout(() => dismiss(id), 5000);
    },
    [dismiss],
  );
  const api = useMemo<Api>(() => ({ success: (m) => push("success", m), error: (m) => push("error", m) }), [push]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4">
        {toasts.map((t) => (
          <div
            key={t.id}
            role={t.tone === "error" ? "alert" : "status"}
            className={`pointer-events-auto flex max-w-md items-start gap-3 rounded-md px-4 py-3 text-sm shadow-lg ${
              t.tone === "error"
                ? "bg-red-700 text-white"
                : "bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900"
            }`}
          >
            <span>{t.message}</span>
            <button type="button" onClick={() => dismiss(t.id)} className="ml-auto underline" aria-label="Dismiss">
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
