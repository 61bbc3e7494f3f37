export * from './contract';
export { decode, encode, Opaque } from './codec';
export { serve, PROTOCOL_VERSION } from './serve';
