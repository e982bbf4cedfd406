/*
 * The providers' public price sources a price list is read from (`impact-service price-list`),
 * each registered once here.
 */
import { AWS_BULK } from "./awsBulk.js";
import { AZURE_RETAIL } from "./azureRetail.js";
import type { PriceSource } from "./source.js";

export const PRICE_SOURCES: readonly PriceSource[] = [AWS_BULK, AZURE_RETAIL];

export { PriceSourceError } from "./source.js";
