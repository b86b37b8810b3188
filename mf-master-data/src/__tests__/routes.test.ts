// The exposed file carries '/company' and '/user' only: a direct hit on /company fetches no other
// screen's code (src/routes.tsx; bench/README.md, 'What a browser downloads').
const mockLoaded: string[] = [];
const mockRecord = (name: string, path: string): object => {
  mockLoaded.push(name);
  return jest.requireActual<object>(path);
};
jest.mock('../features/roles/roles.resource', () => mockRecord('roles', '../features/roles/roles.resource'));
jest.mock('../features/auditors/auditors.resource', () =>
  mockRecord('auditors', '../features/auditors/auditors.resource'),
);
jest.mock('../features/webhooks/WebhookScreen', () =>
  mockRecord('webhooks', '../features/webhooks/WebhookScreen'),
);
jest.mock('../features/notification-log/NotificationLogScreen', () =>
  mockRecord('notification-log', '../features/notification-log/NotificationLogScreen'),
);

it("loads no other screen's code with the '/company' and '/user' screens", async () => {
  const { screens } = await import('../routes');
  expect(Object.keys(screens)).toEqual(expect.arrayContaining(['/company', '/user', '/webhook']));
  expect(mockLoaded).toEqual([]);
});
