-- Neovim's built-in LSP client (0.7), headless, attached to `fabc lsp` on pod.fab: asks
-- for the semantic tokens and decodes them as a client does (five integers a token,
-- line and start relative to the previous one, the type and modifier bits against the
-- legend the server announced), printing each token's text, type and modifiers; then
-- asks for workspace symbols and jumps to the first one through Neovim's own location
-- code (vim.lsp.util.jump_to_location), printing where the cursor lands.
-- (0.7 does not highlight from semantic tokens itself: 0.9 does.)
-- Run: FABC=... FAB=... nvim --headless -u NONE -c 'luafile THIS'
local fabc, file = os.getenv("FABC"), os.getenv("FAB")
local out = function(s) io.stdout:write(s .. "\n") end
local published = false
local default = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  published = true
  return default(err, result, ctx, config)
end
vim.cmd("edit " .. file)
local client_id = vim.lsp.start_client({ name = "fabc", cmd = { fabc, "lsp" }, root_dir = vim.fn.fnamemodify(file, ":h") })
vim.lsp.buf_attach_client(0, client_id)
if not vim.wait(20000, function() return published end, 20) then
  out("timeout waiting for the diagnostics")
  vim.cmd("cquit 2")
end
local client = vim.lsp.get_client_by_id(client_id)
local legend = client.server_capabilities.semanticTokensProvider.legend
out("workspaceSymbolProvider: " .. tostring(client.server_capabilities.workspaceSymbolProvider))

local res = vim.lsp.buf_request_sync(0, "textDocument/semanticTokens/full",
  { textDocument = vim.lsp.util.make_text_document_params() }, 10000)
local data = res[client_id].result.data
local line, start = 0, 0
for i = 1, #data, 5 do
  line = line + data[i]
  start = (data[i] == 0 and start or 0) + data[i + 1]
  local text = vim.api.nvim_buf_get_lines(0, line, line + 1, false)[1]:sub(start + 1, start + data[i + 2])
  local mods = {}
  for b, name in ipairs(legend.tokenModifiers) do
    if math.floor(data[i + 4] / 2 ^ (b - 1)) % 2 == 1 then table.insert(mods, name) end
  end
  out(string.format("token %d:%d %s %s %s", line + 1, start + 1, text, legend.tokenTypes[data[i + 3] + 1],
    table.concat(mods, ",")))
end

res = vim.lsp.buf_request_sync(0, "workspace/symbol", { query = "spine" }, 10000)
local symbols = res[client_id].result
out("symbols: " .. #symbols .. ", first: " .. symbols[1].name .. " (kind " .. symbols[1].kind .. ")")
vim.lsp.util.jump_to_location(symbols[1].location, client.offset_encoding)
local cur = vim.api.nvim_win_get_cursor(0)
out(string.format("jumped to %d:%d: %s", cur[1], cur[2] + 1, vim.api.nvim_get_current_line()))
vim.lsp.stop_client(client_id)
vim.wait(2000, function() return vim.lsp.client_is_stopped(client_id) end, 20)
vim.cmd("qall!")
