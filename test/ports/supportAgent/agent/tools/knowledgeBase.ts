// agent/tools/knowledge-base.js of Slack's bolt-js-support-agent (openai-agents-sdk), ported
// (three of its eight articles: the lookup is the sample's).
import { tool } from "../tool";

interface KBArticle {
  title: string;
  content: string;
  articleId: string;
}

const KB_ARTICLES: Record<string, KBArticle> = {
  vpn: {
    title: "VPN Connection Troubleshooting",
    content:
      "1. Ensure you're connected to the internet\n" +
      "2. Restart the VPN client application\n" +
      "3. Try connecting to a different VPN server region\n" +
      "4. Clear VPN client cache: Settings > Advanced > Clear Cache\n" +
      "5. If still failing, uninstall and reinstall the VPN client from the Software Center",
    articleId: "KB-1001",
  },
  wifi: {
    title: "Office Wi-Fi Connection Guide",
    content:
      "1. Connect to 'CorpNet-Secure' (not 'CorpNet-Guest') for internal access\n" +
      "2. Use your network credentials (same as laptop login)\n" +
      "3. If prompted for a certificate, click 'Trust' or 'Accept'\n" +
      "4. Forget and rejoin the network if experiencing intermittent drops\n" +
      "5. Guest network: 'CorpNet-Guest', password rotates weekly (check lobby display)",
    articleId: "KB-1003",
  },
  password: {
    title: "Password Policy and Reset Guide",
    content:
      "1. Passwords must be at least 12 characters with uppercase, lowercase, number, and symbol\n" +
      "2. Passwords expire every 90 days\n" +
      "3. Self-service reset available at password.company.com\n" +
      "4. Account locks after 5 failed attempts (auto-unlocks after 30 minutes)\n" +
      "5. For immediate unlock, contact IT helpdesk or use Casey's password reset tool",
    articleId: "KB-1006",
  },
};

export const searchKnowledgeBase = tool<{ query: string }>({
  name: "search_knowledge_base",
  description:
    "Search the IT knowledge base for articles matching the given query. " +
    "Use this tool when users ask about common IT topics like VPN, email, Wi-Fi, " +
    "software installation, printers, passwords, hardware, or security.",
  execute: async ({ query }) => {
    const queryLower = query.toLowerCase();
    const matches = [];

    for (const [keyword, article] of Object.entries(KB_ARTICLES)) {
      if (
        queryLower.includes(keyword) ||
        article.title
          .toLowerCase()
          .split(" ")
          .some((word) => queryLower.includes(word))
      ) {
        matches.push(article);
      }
    }

    if (matches.length === 0) {
      return "No knowledge base articles found matching the query. Consider creating a support ticket for further assistance.";
    }

    return matches.map((article) => `**${article.title}** (${article.articleId})\n${article.content}`).join("\n\n---\n\n");
  },
});
