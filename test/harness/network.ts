// Outbound network is off in tests: only loopback connections go through, so an adapter pointed
// at a forgotten real URL fails loudly instead of reaching the internet.
import { MockAgent, setGlobalDispatcher } from 'undici';

const agent = new MockAgent();
agent.disableNetConnect();
agent.enableNetConnect((host) => /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/.test(host));
setGlobalDispatcher(agent);
