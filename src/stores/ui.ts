/** Small pieces of remembered UI state: onboarding, the banner, the update notification. */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

interface OnboardingState {
  completed: boolean;
  complete(): void;
}

export const useOnboardingStore = create<OnboardingState>()(
  persist((set) => ({ completed: false, complete: () => set({ completed: true }) }), { name: 'onboarding' }),
);

interface BannerState {
  dismissed: boolean;
  dismiss(): void;
}

export const useBannerStore = create<BannerState>()(
  persist((set) => ({ dismissed: false, dismiss: () => set({ dismissed: true }) }), { name: 'banner' }),
);

interface NotificationState {
  /** Whether the update notification has not been looked at in this browser session. */
  unseen: boolean;
  markSeen(): void;
}

export const useNotificationStore = create<NotificationState>()(
  persist((set) => ({ unseen: true, markSeen: () => set({ unseen: false }) }), {
    name: 'new-notification',
    storage: createJSONStorage(() => sessionStorage),
  }),
);
