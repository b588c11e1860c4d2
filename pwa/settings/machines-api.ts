/**
 * The linked machines' routes, for Settings alone: kept out of the app's first screen, which
 * every phone downloads before it shows anything.
 */
import type { AddMachineBody, MachinesResponse, MachineView } from '../../protocol/machines.js';
import { API_ROUTES, routePath } from '../../protocol/routes.js';
import { apiResponse } from '../core/api-request.js';

/** The machines this agent linked; with `check`, each is asked first whether it answers. */
export async function machines(check: boolean): Promise<MachinesResponse> {
  return (await apiResponse<MachinesResponse>('GET', `${routePath(API_ROUTES.machines)}${check ? '?check=1' : ''}`)).body;
}

export async function addMachine(body: AddMachineBody): Promise<MachineView> {
  return (await apiResponse<MachineView>(API_ROUTES.addMachine.method, routePath(API_ROUTES.addMachine), body)).body;
}

export async function removeMachine(id: string): Promise<{ told: boolean; problem: string | null }> {
  return (await apiResponse<{ told: boolean; problem: string | null }>(API_ROUTES.removeMachine.method, routePath(API_ROUTES.removeMachine, id))).body;
}
