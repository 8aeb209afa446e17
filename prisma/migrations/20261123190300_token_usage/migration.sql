-- CreateTable
CREATE TABLE "ApiRequestLog" (
    "id" BIGSERIAL NOT NULL,
    "customerId" TEXT NOT NULL,
    "tokenId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "latencyMs" INTEGER NOT NULL,
    "clientIp" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,

    CONSTRAINT "ApiRequestLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiUsageHour" (
    "tokenId" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "customerId" TEXT NOT NULL,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "errors" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ApiUsageHour_pkey" PRIMARY KEY ("tokenId","hour")
);

-- CreateIndex
CREATE INDEX "ApiRequestLog_tokenId_at_idx" ON "ApiRequestLog"("tokenId", "at");

-- CreateIndex
CREATE INDEX "ApiRequestLog_customerId_at_idx" ON "ApiRequestLog"("customerId", "at");

-- CreateIndex
CREATE INDEX "ApiUsageHour_customerId_hour_idx" ON "ApiUsageHour"("customerId", "hour");
