import { User, type UpdateProfileRequest } from '@sleepweave/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { profileChanged } from '../../../lib/auth';

/** PUT /api/profile: names, timezone, hormonal stage; answers the updated user. A 401 is the form's to handle. */
export function updateProfile(data: UpdateProfileRequest): Promise<User> {
  return api.put('/api/profile', data, { schema: User, redirectOnUnauthorized: false });
}

export function useUpdateProfile({
  onSuccess,
  onError,
}: {
  onSuccess?: (user: User) => void;
  /** With what could not be saved. */
  onError?: (error: Error, data: UpdateProfileRequest) => void;
} = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => {
      profileChanged(queryClient, user);
      onSuccess?.(user);
    },
    onError,
  });
}
